/**
 * The closing block of `npm test` and `npm run test:quick`: each stage's result and time, the
 * total, and the line counting the tests, read from the runners' JSON reports (CI reads that line).
 */
import { readFileSync } from 'node:fs';

/** The parsed JSON report at `file`; undefined when the runner wrote none, or not all of it. */
export const readReport = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** Counts of a vitest JSON report; todo tests count as skipped. */
const countVitest = (report) => ({
  passed: report.numPassedTests,
  failed: report.numFailedTests,
  skipped: report.numPendingTests + report.numTodoTests,
});

/** Counts of a Playwright JSON report; a flaky test passed on a retry. */
const countPlaywright = ({ stats }) => ({
  passed: stats.expected + stats.flaky,
  failed: stats.unexpected,
  skipped: stats.skipped,
});

const COUNTERS = { vitest: countVitest, playwright: countPlaywright };

const NONE = { passed: 0, failed: 0, skipped: 0 };

const add = (a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped });

const countsText = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;

/** Whole seconds; past a minute, minutes and seconds too. */
export const formatDuration = (ms) => {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

/**
 * Reads each stage's report (test-summary.d.mts describes a stage) and returns the closing block's
 * lines, the last one `tests: …`, and whether every stage passed: a stage whose report is missing
 * has failed, whatever its exit status.
 */
export const summarize = (stages, totalMs) => {
  const width = Math.max(...stages.map((stage) => stage.name.length), 'total'.length);
  let total = NONE;
  let allOk = true;
  const lines = stages.map((stage) => {
    const report = stage.report && !stage.skipped ? readReport(stage.report.file) : undefined;
    const counts = report && COUNTERS[stage.report.runner](report);
    if (counts) total = add(total, counts);
    const missing = Boolean(stage.report && !stage.skipped && !report);
    const ok = stage.ok && !missing;
    allOk &&= ok;
    const time = stage.ms === undefined ? '' : formatDuration(stage.ms);
    const note = stage.skipped ? `skipped: ${stage.skipped}` : missing ? 'wrote no report' : counts ? countsText(counts) : '';
    return `${ok ? 'ok  ' : 'FAIL'} ${stage.name.padEnd(width)} ${time.padStart(11)}${note ? `  ${note}` : ''}`.trimEnd();
  });
  lines.push(`     ${'total'.padEnd(width)} ${formatDuration(totalMs).padStart(11)}`);
  lines.push(`tests: ${countsText(total)}`);
  return { lines, ok: allOk };
};
