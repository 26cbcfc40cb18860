/** A titled section of a page. Its live durations tick only while it is on screen (see `useOnScreenClock`), unless told otherwise. */
import type { ReactNode } from 'react';
import { ClockScope, useOnScreenClock } from '../../lib/clock.js';

export const Panel = ({
  title,
  actions,
  children,
  className = '',
  id,
  tickOffScreen = false,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
  /**
   * Keeps the page's clock inside even while the panel is off screen: for a panel whose time moves
   * what it says and announces (a call in progress), not only what it shows.
   */
  tickOffScreen?: boolean;
}) => {
  const { ref, clock } = useOnScreenClock<HTMLElement>();
  const body = <div className="p-4">{children}</div>;
  return (
    <section ref={tickOffScreen ? undefined : ref} id={id} aria-label={title} className={`rounded-lg border border-line bg-panel ${className}`}>
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-2">
        <h2 className="text-sm font-semibold tracking-wide text-muted uppercase">{title}</h2>
        {actions}
      </header>
      {tickOffScreen ? body : <ClockScope value={clock}>{body}</ClockScope>}
    </section>
  );
};
