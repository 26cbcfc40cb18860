/**
 * `npm run simulator -- [flags]`: one simulated call center as a process of its own, for service
 * instances to share (a simulator provider's `"settings": { "url": ... }`). Installs and builds
 * when needed, as `npm start` does; bad flags are reported before any build.
 */
import { buildWhenChanged, ensureDependencies, run, stopWhenOrphaned } from './setup.mjs';

const SOURCE_ENTRY = ['--import', 'tsx', 'src/server/simulator-main.ts'];
const flags = process.argv.slice(2);

ensureDependencies();
// --help and --check start nothing: the sources answer them without a build.
if (flags.includes('--help') || flags.includes('--check')) process.exit(run(process.execPath, [...SOURCE_ENTRY, ...flags]));
buildWhenChanged(() => run(process.execPath, [...SOURCE_ENTRY, '--check', ...flags], { stdio: ['inherit', 'ignore', 'inherit'] }), 'the simulator');
stopWhenOrphaned();

process.setSourceMapsEnabled(true);
await import('../dist/server/simulator-main.js');
