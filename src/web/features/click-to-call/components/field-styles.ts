/** Shared look of the click-to-call inputs: theme tokens only, so dark mode follows. */
export const inputClass =
  'w-full rounded-md border border-line bg-panel px-2 py-1.5 text-sm text-ink placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent aria-invalid:border-danger';

export const labelClass = 'text-sm font-medium text-ink';

export const fieldErrorClass = 'rounded bg-danger-bg px-2 py-1 text-sm text-danger';
