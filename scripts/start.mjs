/**
 * `npm start`: install, build when the sources changed since the last build, and run the service
 * in this process (the simulator demo unless CALLBOARD_CONFIG is set). A bad config or environment
 * is reported before any build. Stopping this process, npm, or the service stops all of them.
 */
import { isBuildCurrent } from './build-inputs.mjs';
import { ensureDependencies, run, runOrExit } from './setup.mjs';

ensureDependencies();
if (!isBuildCurrent()) {
  // Check the configuration from the sources first: a typo should not wait for a build to be reported.
  if (run(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--check']) !== 0) process.exit(1);
  console.log('Building the service and the dashboard (only when the sources changed)...');
  runOrExit('npm', ['run', '--silent', 'build']);
}

// npm sends stop signals to its direct child only; were npm itself killed, this process would be
// left running under another parent. Noticing that is the same as being asked to stop.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 1000).unref();

process.setSourceMapsEnabled(true);
await import('../dist/server/main.js');
