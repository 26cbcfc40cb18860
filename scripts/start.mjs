/**
 * `npm start`: install, build when the sources changed since the last build, and run the service
 * in this process (the simulator demo unless CALLBOARD_CONFIG is set). A bad config or environment
 * is reported before any build. Stopping this process, npm, or the service stops all of them.
 */
import { buildWhenChanged, ensureDependencies, run, stopWhenOrphaned } from './setup.mjs';

ensureDependencies();
// Check the configuration from the sources first: a typo should not wait for a build to be reported.
buildWhenChanged(() => run(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--check']), 'the service and the dashboard');
stopWhenOrphaned();

process.setSourceMapsEnabled(true);
await import('../dist/server/main.js');
