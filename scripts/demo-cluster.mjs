/**
 * `npm run demo:cluster`: install, build, then run a cluster on this machine: a throwaway
 * PostgreSQL (unless DATABASE_URL names one), the simulators as processes of their own, three
 * service instances and HAProxy in front (src/testbed/cluster-demo.ts). Ctrl-C stops everything.
 */
import { spawn } from 'node:child_process';
import { ensureDependencies, runOrExit } from './setup.mjs';
import { ensureSystemPackages } from './system-packages.mjs';
import { startThrowawayPostgres } from './throwaway-postgres.mjs';

ensureDependencies();
ensureSystemPackages(process.env.DATABASE_URL ? ['haproxy'] : ['postgresql', 'haproxy']);
runOrExit('npm', ['run', '--silent', 'build']);

let postgres;
let databaseURL = process.env.DATABASE_URL;
if (!databaseURL) {
  postgres = await startThrowawayPostgres({ database: 'callboard' });
  databaseURL = postgres.url;
  process.on('exit', () => postgres.stop());
  console.log(`PostgreSQL for this run (removed when it stops): ${databaseURL}`);
}

// The cluster stops its balancer, instances and simulators itself; pass stop signals on and wait for it.
const demo = spawn(process.execPath, ['--import', 'tsx', 'src/testbed/cluster-demo.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: databaseURL },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => demo.kill(signal));
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
