/** A group of toggle buttons: each one a choice, the pressed one the choice on screen; `children` follow the choices inside the group. */
import type { ReactNode } from 'react';
import { Button } from './button.js';

export interface ToggleChoice<T> {
  value: T;
  label: ReactNode;
}

export interface ToggleGroupProps<T> {
  /** The group's accessible name. */
  label: string;
  choices: readonly ToggleChoice<T>[];
  /** The pressed choice; undefined when none is (another control of the group holds). */
  selected: T | undefined;
  onSelect: (value: T) => void;
  className?: string;
  children?: ReactNode;
}

export const ToggleGroup = <T extends string | number>({ label, choices, selected, onSelect, className = 'flex gap-1', children }: ToggleGroupProps<T>) => (
  <div role="group" aria-label={label} className={className}>
    {choices.map((choice) => {
      const pressed = choice.value === selected;
      return (
        <Button key={choice.value} size="sm" variant={pressed ? 'primary' : 'secondary'} aria-pressed={pressed} onClick={() => onSelect(choice.value)}>
          {choice.label}
        </Button>
      );
    })}
    {children}
  </div>
);
