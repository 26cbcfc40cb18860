/**
 * `npm test`: installs what the tests need (dependencies; Chromium, Kamailio, baresip and
 * PostgreSQL from Debian's packages), starts a throwaway PostgreSQL when DATABASE_URL is not set,
 * runs typecheck, lint, the unit, component and real-SIP tests (vitest), the service's suite again
 * against PostgreSQL, and the end-to-end tests (Playwright); stops what it started, and closes
 * with one line counting the tests, read from the runners' JSON reports.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium, ensureDependencies } from './setup.mjs';
import { ensureSystemPackages } from './system-packages.mjs';
import { startThrowawayPostgres } from './throwaway-postgres.mjs';

const REPORTS = 'test-results/reports';

ensureDependencies();
ensureSystemPackages(['chromium', 'kamailio', 'baresip', 'postgresql', 'haproxy']);
const chromium = ensureChromium();
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

/** The child running now, so a stop signal reaches it before we clean up. */
let current;
const cleanups = [];
const cleanUp = () => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
};
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    current?.kill(signal);
    cleanUp();
    process.exit(130);
  });

const { DATABASE_URL: configuredDatabase, ...embeddedEnv } = process.env;
let databaseURL = configuredDatabase;
if (!databaseURL) {
  console.log('Starting a throwaway PostgreSQL on a free loopback port...');
  const postgres = await startThrowawayPostgres({ database: 'callboard_test' });
  cleanups.push(postgres.stop);
  databaseURL = postgres.url;
}

const spawnStep = (command, args, env) =>
  new Promise((resolve) => {
    current = spawn(command, args, { stdio: 'inherit', env });
    current.once('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(1);
    });
    current.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const steps = [];
const step = async (name, command, args, env = {}) => {
  console.log(`\n=== ${name} ===`);
  const ok = (await spawnStep(command, args, { ...embeddedEnv, ...env })) === 0;
  steps.push({ name, ok });
  return ok;
};
const skip = (name, reason) => {
  console.log(`\n=== ${name} === skipped: ${reason}`);
  steps.push({ name, ok: false });
};

const vitest = (report, ...args) => ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/${report}`];

await step('typecheck', 'npx', ['tsc', '-b']);
await step('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
await step('unit, component and real-SIP tests (embedded store)', 'npx', vitest('vitest.json'), { NO_COLOR: '1' });
await step('service tests against PostgreSQL', 'npx', vitest('vitest-postgres.json', '--project', 'service'), {
  NO_COLOR: '1',
  DATABASE_URL: databaseURL,
});
if (await step('build', 'npm', ['run', '--silent', 'build']))
  await step('end-to-end tests', 'npx', ['playwright', 'test'], { CHROMIUM_PATH: chromium });
else skip('end-to-end tests', 'the build failed, so there is no dashboard to test');
cleanUp();

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const vitestReports = { 'vitest (embedded store)': readJson(`${REPORTS}/vitest.json`), 'vitest (PostgreSQL)': readJson(`${REPORTS}/vitest-postgres.json`) };
const playwright = readJson(`${REPORTS}/playwright.json`);
const vitestRuns = Object.values(vitestReports).filter(Boolean);
const sum = (pick) => vitestRuns.reduce((total, report) => total + pick(report), 0);

const passed = sum((r) => r.numPassedTests) + (playwright?.stats.expected ?? 0) + (playwright?.stats.flaky ?? 0);
const failed = sum((r) => r.numFailedTests) + (playwright?.stats.unexpected ?? 0);
const skipped = sum((r) => r.numPendingTests + r.numTodoTests) + (playwright?.stats.skipped ?? 0);

const missingReports = [...Object.entries(vitestReports).filter(([, report]) => !report).map(([name]) => name), ...(playwright ? [] : ['Playwright'])];
console.log('');
for (const { name, ok } of steps) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
for (const name of missingReports) console.log(`FAIL ${name} wrote no report`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(steps.every((s) => s.ok) && missingReports.length === 0 ? 0 : 1);
