/** Buttons in four weights; always a real <button>, so keyboard and screen readers get it for free. A link that looks like one takes `buttonClass`. */
import type { ButtonHTMLAttributes, Ref } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md';

const variants: Record<Variant, string> = {
  primary: 'bg-accent text-accent-ink hover:brightness-90 border-transparent',
  secondary: 'bg-panel text-ink border-line hover:bg-raised',
  ghost: 'bg-transparent text-ink border-transparent hover:bg-raised',
  danger: 'bg-danger-bg text-danger border-danger/40 hover:brightness-95',
};

export const buttonClass = (variant: Variant = 'secondary', size: Size = 'md'): string =>
  `inline-flex items-center justify-center gap-1.5 rounded-md border font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50 ${
    size === 'sm' ? 'px-2 py-1 text-sm' : 'px-3 py-1.5 text-sm'
  } ${variants[variant]}`;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  ref?: Ref<HTMLButtonElement>;
}

export const Button = ({ variant = 'secondary', size = 'md', className = '', type = 'button', ...props }: ButtonProps) => (
  <button type={type} className={`${buttonClass(variant, size)} ${className}`} {...props} />
);
