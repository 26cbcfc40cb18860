/**
 * `npm test`: installs what the tests need, then runs typecheck, lint, unit and component tests
 * (vitest) and end-to-end tests (Playwright), and closes with one line counting the tests, read
 * from the runners' JSON reports. The service's suite runs against the embedded store, and once
 * more against PostgreSQL when DATABASE_URL is set (.ci/run sets it).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium, ensureDependencies, run } from './setup.mjs';

const REPORTS = 'test-results/reports';

ensureDependencies();
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const { DATABASE_URL, ...embeddedEnv } = process.env;

const steps = [];
const step = (name, command, args, env = {}, base = embeddedEnv) => {
  console.log(`\n=== ${name} ===`);
  const status = run(command, args, { env: { ...base, ...env } });
  steps.push({ name, ok: status === 0 });
};

step('typecheck', 'npx', ['tsc', '-b']);
step('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
step('unit and component tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/vitest.json`], {
  NO_COLOR: '1',
});
if (DATABASE_URL)
  step(
    'service tests against PostgreSQL',
    'npx',
    ['vitest', 'run', '--project', 'service', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/vitest-postgres.json`],
    { NO_COLOR: '1', DATABASE_URL },
  );
step('build', 'npm', ['run', '--silent', 'build']);
const chromium = ensureChromium();
step('end-to-end tests', 'npx', ['playwright', 'test'], chromium ? { CHROMIUM_PATH: chromium } : {});

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const vitest = readJson(`${REPORTS}/vitest.json`);
const vitestPostgres = DATABASE_URL ? readJson(`${REPORTS}/vitest-postgres.json`) : undefined;
const playwright = readJson(`${REPORTS}/playwright.json`);
const vitestRuns = [vitest, vitestPostgres].filter(Boolean);
const sum = (pick) => vitestRuns.reduce((total, report) => total + pick(report), 0);

const passed = sum((r) => r.numPassedTests) + (playwright?.stats.expected ?? 0) + (playwright?.stats.flaky ?? 0);
const failed = sum((r) => r.numFailedTests) + (playwright?.stats.unexpected ?? 0);
const skipped = sum((r) => r.numPendingTests + r.numTodoTests) + (playwright?.stats.skipped ?? 0);

console.log('');
for (const { name, ok } of steps) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
if (!vitest) console.log('FAIL vitest wrote no report');
if (DATABASE_URL && !vitestPostgres) console.log('FAIL vitest against PostgreSQL wrote no report');
if (!playwright) console.log('FAIL Playwright wrote no report');
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(steps.every((s) => s.ok) && vitest && playwright && (!DATABASE_URL || vitestPostgres) ? 0 : 1);
