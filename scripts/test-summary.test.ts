import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDuration, summarize, type Stage } from './test-summary.mjs';

/** The top of a vitest JSON report, as `--reporter=json` writes it (its per-file results left out). */
const vitestReport = (counts: { passed: number; failed: number; pending?: number; todo?: number }) => ({
  numTotalTestSuites: 4,
  numPassedTestSuites: counts.failed ? 3 : 4,
  numFailedTestSuites: counts.failed ? 1 : 0,
  numPendingTestSuites: 0,
  numTotalTests: counts.passed + counts.failed + (counts.pending ?? 0) + (counts.todo ?? 0),
  numPassedTests: counts.passed,
  numFailedTests: counts.failed,
  numPendingTests: counts.pending ?? 0,
  numTodoTests: counts.todo ?? 0,
  startTime: 1795886361934,
  success: counts.failed === 0,
  testResults: [],
});

/** A Playwright JSON report's stats. */
const playwrightReport = (stats: { expected: number; unexpected: number; flaky: number; skipped: number }) => ({
  config: {},
  suites: [],
  errors: [],
  stats: { startTime: '2026-11-28T16:00:00.000Z', duration: 371_204.5, ...stats },
});

const FINAL_LINE = /^tests: \d+ passed, \d+ failed(, \d+ skipped)?$/;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'callboard-summary-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const report = (name: string, content: unknown, runner: 'vitest' | 'playwright' = 'vitest') => {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return { runner, file };
};

describe('the closing block', () => {
  it('gives each stage its result and time, the total, and last the tests of every report added up', () => {
    const stages: Stage[] = [
      { name: 'set-up', ok: true, ms: 94_200 },
      { name: 'typecheck', ok: true, ms: 38_400 },
      {
        name: 'unit and component tests',
        ok: true,
        ms: 171_000,
        report: report('unit.json', vitestReport({ passed: 1252, failed: 0, pending: 10, todo: 2 })),
      },
      {
        name: 'service tests on PostgreSQL',
        ok: true,
        ms: 246_000,
        report: report('pg.json', vitestReport({ passed: 1210, failed: 0, pending: 54 })),
      },
      {
        name: 'end-to-end tests',
        ok: true,
        ms: 370_600,
        report: report('playwright.json', playwrightReport({ expected: 88, unexpected: 0, flaky: 2, skipped: 1 }), 'playwright'),
      },
    ];
    const { lines, ok } = summarize(stages, 1_214_000);
    expect(lines).toEqual([
      'ok   set-up                       1 min 34 s',
      'ok   typecheck                          38 s',
      'ok   unit and component tests     2 min 51 s  1252 passed, 0 failed, 12 skipped',
      'ok   service tests on PostgreSQL   4 min 6 s  1210 passed, 0 failed, 54 skipped',
      'ok   end-to-end tests             6 min 11 s  90 passed, 0 failed, 1 skipped',
      '     total                       20 min 14 s',
      'tests: 2552 passed, 0 failed, 67 skipped',
    ]);
    expect(ok).toBe(true);
  });

  it('counts the failed tests of a stage that failed, and fails the run', () => {
    const { lines, ok } = summarize(
      [
        { name: 'lint', ok: false, ms: 41_000 },
        { name: 'real-SIP tests', ok: false, ms: 62_000, report: report('sip.json', vitestReport({ passed: 30, failed: 2 })) },
        {
          name: 'end-to-end tests',
          ok: false,
          ms: 300_000,
          report: report(
            'playwright.json',
            playwrightReport({ expected: 80, unexpected: 3, flaky: 0, skipped: 0 }),
            'playwright',
          ),
        },
      ],
      500_000,
    );
    expect(lines[0]).toMatch(/^FAIL lint +41 s$/);
    expect(lines[1]).toMatch(/^FAIL real-SIP tests +1 min 2 s {2}30 passed, 2 failed$/);
    expect(lines[2]).toMatch(/^FAIL end-to-end tests +5 min 0 s {2}80 passed, 3 failed$/);
    expect(lines.at(-1)).toBe('tests: 110 passed, 5 failed');
    expect(ok).toBe(false);
  });

  it('fails a stage whose runner wrote no report, or not all of it, even when it exited 0, and counts none of its tests', () => {
    const { lines, ok } = summarize(
      [
        {
          name: 'unit and component tests',
          ok: true,
          ms: 150_000,
          report: report('unit.json', vitestReport({ passed: 100, failed: 0 })),
        },
        { name: 'cluster tests', ok: true, ms: 3_000, report: { runner: 'vitest', file: join(dir, 'never-written.json') } },
        { name: 'service tests on PostgreSQL', ok: true, ms: 9_000, report: report('cut.json', '{"numPassedTests": 12, "numFa') },
      ],
      170_000,
    );
    expect(lines[1]).toMatch(/^FAIL cluster tests +3 s {2}wrote no report$/);
    expect(lines[2]).toMatch(/^FAIL service tests on PostgreSQL +9 s {2}wrote no report$/);
    expect(lines.at(-1)).toBe('tests: 100 passed, 0 failed');
    expect(ok).toBe(false);
  });

  it('fails a stage that could not run, saying why, without a time', () => {
    const { lines, ok } = summarize(
      [
        { name: 'build', ok: false, ms: 12_000 },
        {
          name: 'end-to-end tests',
          ok: false,
          skipped: 'the build failed',
          report: { runner: 'playwright', file: join(dir, 'playwright.json') },
        },
      ],
      13_000,
    );
    expect(lines[1]).toMatch(/^FAIL end-to-end tests +skipped: the build failed$/);
    expect(lines.at(-1)).toBe('tests: 0 passed, 0 failed');
    expect(ok).toBe(false);
  });

  it('ends with the line CI reads, and nothing after it', () => {
    const { lines } = summarize([{ name: 'typecheck', ok: true, ms: 1 }], 2);
    expect(lines.at(-1)).toMatch(FINAL_LINE);
    expect(lines.slice(0, -1).some((line) => line.startsWith('tests:'))).toBe(false);
  });
});

describe('formatDuration', () => {
  it('gives whole seconds under a minute, then minutes and seconds', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(38_499)).toBe('38 s');
    expect(formatDuration(59_500)).toBe('1 min 0 s');
    expect(formatDuration(1_214_000)).toBe('20 min 14 s');
  });
});
