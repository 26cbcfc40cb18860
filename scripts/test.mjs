/**
 * `npm test`: installs what the tests need, then runs typecheck, lint, unit and component tests
 * (vitest) and end-to-end tests (Playwright), and closes with one line counting the tests, read
 * from the runners' JSON reports.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium, ensureDependencies, run } from './setup.mjs';

const REPORTS = 'test-results/reports';

ensureDependencies();
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const steps = [];
const step = (name, command, args, env = {}) => {
  console.log(`\n=== ${name} ===`);
  const status = run(command, args, { env: { ...process.env, ...env } });
  steps.push({ name, ok: status === 0 });
};

step('typecheck', 'npx', ['tsc', '-b']);
step('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
step('unit and component tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/vitest.json`], {
  NO_COLOR: '1',
});
step('build', 'npm', ['run', '--silent', 'build']);
const chromium = ensureChromium();
step('end-to-end tests', 'npx', ['playwright', 'test'], chromium ? { CHROMIUM_PATH: chromium } : {});

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const vitest = readJson(`${REPORTS}/vitest.json`);
const playwright = readJson(`${REPORTS}/playwright.json`);

const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats.expected ?? 0) + (playwright?.stats.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats.unexpected ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + (playwright?.stats.skipped ?? 0);

console.log('');
for (const { name, ok } of steps) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
if (!vitest) console.log('FAIL vitest wrote no report');
if (!playwright) console.log('FAIL Playwright wrote no report');
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(steps.every((s) => s.ok) && vitest && playwright ? 0 : 1);
