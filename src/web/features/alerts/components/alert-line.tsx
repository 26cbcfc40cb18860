/** The live view's alert strip is one line, always this high, whatever it says: the figures below never jump. */
import type { ReactNode } from 'react';

export const ALERT_LINE = 'flex h-11 items-center gap-3 rounded-md px-3';

/** The strip when no alert is to show: a quiet line of text (checking, all clear). */
export const AlertStripNote = ({ children }: { children: ReactNode }) => (
  <section aria-label="Alerts">
    <p className={`${ALERT_LINE} border border-line text-sm text-muted`}>{children}</p>
  </section>
);
