/**
 * `npm run test:quick`: the inner loop. Installs the dependencies when missing, then runs
 * typecheck and lint beside the unit and component tests (the service's on its embedded store):
 * no browser, no SIP, no PostgreSQL, no system package. Closes like `npm test`.
 */
import { availableParallelism } from 'node:os';
import { ensureDependencies } from './setup.mjs';
import { TestStages, vitestStage } from './test-stages.mjs';

ensureDependencies();
const { DATABASE_URL: _unused, ...embeddedEnv } = process.env;
const stages = new TestStages(embeddedEnv);
stages.recordSetUp();

// vitest's default on two cores is one worker; its tests wait on timers and sockets often enough
// that two share the cores well, beside the checks.
const workers = Math.max(2, availableParallelism() - 1);
const tests = vitestStage('vitest-unit.json', ['service', 'dashboard']);
const checks = async () => {
  await stages.run('typecheck', { command: 'npx', args: ['tsc', '-b'], alongside: true });
  await stages.run('lint', { command: 'npx', args: ['eslint', '--max-warnings=0', '.'], alongside: true });
};
await Promise.all([
  checks(),
  stages.run('unit and component tests', { ...tests, args: [...tests.args, `--maxWorkers=${workers}`] }),
]);
stages.finish();
