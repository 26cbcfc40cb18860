/** Types of test-summary.mjs, for its tests. */
export interface Stage {
  name: string;
  ok: boolean;
  /** How long it ran; none when it was skipped. */
  ms?: number;
  /** Why it did not run. */
  skipped?: string;
  /** The JSON report its runner writes. */
  report?: { runner: 'vitest' | 'playwright'; file: string };
}

export function readReport(file: string): unknown;
export function formatDuration(ms: number): string;
export function summarize(stages: Stage[], totalMs: number): { lines: string[]; ok: boolean };
