/** A titled section of a page. Its live durations tick only while it is on screen (see `useOnScreenClock`). */
import type { ReactNode } from 'react';
import { ClockScope, useOnScreenClock } from '../../lib/clock.js';

export const Panel = ({
  title,
  actions,
  children,
  className = '',
  id,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) => {
  const { ref, clock } = useOnScreenClock<HTMLElement>();
  return (
    <section ref={ref} id={id} aria-label={title} className={`rounded-lg border border-line bg-panel ${className}`}>
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-2">
        <h2 className="text-sm font-semibold tracking-wide text-muted uppercase">{title}</h2>
        {actions}
      </header>
      <ClockScope value={clock}>
        <div className="p-4">{children}</div>
      </ClockScope>
    </section>
  );
};
