/** A full-width message: warnings and errors say what happened and what the screen still shows. */
import type { ReactNode } from 'react';
import { InfoIcon, WarningIcon } from './icons.js';

const tones = {
  info: 'border-line bg-raised text-ink',
  warn: 'border-warn/40 bg-warn-bg text-warn',
  danger: 'border-danger/40 bg-danger-bg text-danger',
};

export const Banner = ({
  tone,
  title,
  children,
  action,
}: {
  tone: keyof typeof tones;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) => (
  <div role={tone === 'danger' ? 'alert' : 'status'} className={`flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border px-4 py-2 ${tones[tone]}`}>
    <span className="text-lg leading-none">{tone === 'info' ? <InfoIcon /> : <WarningIcon />}</span>
    <div className="min-w-0 flex-1">
      <p className="font-semibold">{title}</p>
      {children ? <div className="text-sm">{children}</div> : null}
    </div>
    {action}
  </div>
);
