/**
 * `npm test`: installs what the tests need (dependencies; Chromium, Kamailio with its WebSocket and
 * auth_ephemeral modules, baresip, rtpengine and
 * PostgreSQL from Debian's packages), starts a throwaway PostgreSQL when DATABASE_URL is not set,
 * runs typecheck, lint, the unit and component tests, the real-SIP tests, the cluster's tests, the
 * service's suite again against PostgreSQL, and the end-to-end tests (Playwright); stops what it
 * started, and closes with each stage's result and time and one line counting the tests, read
 * from the runners' JSON reports.
 */
import { ensureChromium, ensureDependencies } from './setup.mjs';
import { ensureSystemPackages } from './system-packages.mjs';
import { startThrowawayPostgres } from './throwaway-postgres.mjs';
import { REPORTS, TestStages, vitestStage } from './test-stages.mjs';

ensureDependencies();
ensureSystemPackages(['chromium', 'kamailio', 'kamailioWebsocket', 'kamailioAutheph', 'baresip', 'rtpengine', 'postgresql', 'haproxy']);
const chromium = ensureChromium();

const { DATABASE_URL: configuredDatabase, ...embeddedEnv } = process.env;
const stages = new TestStages(embeddedEnv);
let databaseURL = configuredDatabase;
if (!databaseURL) {
  console.log('Starting a throwaway PostgreSQL on a free loopback port...');
  const postgres = await startThrowawayPostgres({ database: 'callboard_test' });
  stages.onCleanUp(postgres.stop);
  databaseURL = postgres.url;
}
stages.recordSetUp();

await stages.run('typecheck', { command: 'npx', args: ['tsc', '-b'] });
await stages.run('lint', { command: 'npx', args: ['eslint', '--max-warnings=0', '.'] });
await stages.run('unit and component tests', vitestStage('vitest-unit.json', ['service', 'dashboard']));
await stages.run('real-SIP tests', vitestStage('vitest-sip.json', ['sip']));
await stages.run('cluster tests', vitestStage('vitest-cluster.json', ['cluster']));
const postgresRun = vitestStage('vitest-postgres.json', ['service']);
await stages.run('service tests on PostgreSQL', { ...postgresRun, env: { ...postgresRun.env, DATABASE_URL: databaseURL } });
if (await stages.run('build', { command: 'npm', args: ['run', '--silent', 'build'] }))
  await stages.run('end-to-end tests', {
    command: 'npx',
    args: ['playwright', 'test'],
    env: { CHROMIUM_PATH: chromium },
    report: { runner: 'playwright', file: `${REPORTS}/playwright.json` },
  });
else stages.skip('end-to-end tests', 'the build failed, so there is no dashboard to test');
stages.finish();
