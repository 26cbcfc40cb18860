/** What an analytics panel shows while its answer is on its way, or when it failed. */
import type { ReactNode } from 'react';
import { Banner } from './banner.js';

export const Loading = () => <p className="text-sm text-muted">Loading…</p>;

/**
 * "Loading…" in the place of a sentence still to come, as tall as that sentence will be: an
 * invisible sample of it, worded alike, holds the lines, so the figures arriving push nothing down.
 */
export const PendingText = ({ sample }: { sample: string }) => (
  <span className="grid">
    <span className="text-muted [grid-area:1/1]">Loading…</span>
    <span aria-hidden="true" className="invisible [grid-area:1/1]">
      {sample}
    </span>
  </span>
);

/** Content kept in the layout but not shown, nor read, until its figures are in: it holds their place. */
export const Placeholder = ({ shown, children }: { shown: boolean; children: ReactNode }) =>
  shown ? (
    children
  ) : (
    <div aria-hidden="true" className="invisible">
      {children}
    </div>
  );

export const QueryProblem = ({ error }: { error: Error }) => (
  <Banner tone="danger" title="Cannot load this panel">
    {error.message}
  </Banner>
);
