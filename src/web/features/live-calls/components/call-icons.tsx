/** The table's small line icons: drawn inline so they look the same on every platform, and always beside text. */
import type { ReactNode } from 'react';

const Icon = ({ children, className = '' }: { children: ReactNode; className?: string }) => (
  <svg
    aria-hidden="true"
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.5"
    strokeLinecap="round"
    strokeLinejoin="round"
    className={`h-4 w-4 shrink-0 ${className}`}
  >
    {children}
  </svg>
);

export const RingingIcon = () => (
  <Icon>
    <path d="M4 11V7a4 4 0 0 1 8 0v4l1.5 1.5h-11L4 11Z" />
    <path d="M6.5 14.5h3" />
  </Icon>
);

export const TalkingIcon = () => (
  <Icon>
    <path d="M2.5 3.5h11v7h-6l-3 3v-3h-2Z" />
  </Icon>
);

export const MissedIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="6" />
    <path d="m6 6 4 4m0-4-4 4" />
  </Icon>
);

export const EndedIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="6" />
    <path d="m5.5 8.2 1.8 1.8 3.2-3.6" />
  </Icon>
);

export const InboundIcon = () => (
  <Icon>
    <path d="M12 4 4 12m0-6v6h6" />
  </Icon>
);

export const OutboundIcon = () => (
  <Icon>
    <path d="M4 12 12 4M6 4h6v6" />
  </Icon>
);

export const WarningIcon = () => (
  <Icon>
    <path d="M8 2.5 14.5 13.5h-13Z" />
    <path d="M8 6.5v3m0 2v.01" />
  </Icon>
);

export const ClockIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="6" />
    <path d="M8 5v3l2 1.5" />
  </Icon>
);

export const CopyIcon = () => (
  <Icon>
    <rect x="5.5" y="5.5" width="8" height="8" rx="1" />
    <path d="M10.5 5.5v-2a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h2" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon>
    <path d="m3.5 8.5 3 3 6-7" />
  </Icon>
);

export const SortIcon = ({ dir }: { dir: 'asc' | 'desc' | undefined }) => (
  <Icon className={dir ? '' : 'opacity-40'}>
    {dir !== 'desc' ? <path d="m5 6.5 3-3 3 3" /> : null}
    {dir !== 'asc' ? <path d="m5 9.5 3 3 3-3" /> : null}
  </Icon>
);
