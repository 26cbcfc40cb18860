/**
 * `npm run simulator -- [flags]`: one simulated call center as a process of its own, for service
 * instances to share (a simulator provider's `"settings": { "url": ... }`). Installs and builds
 * when needed, as `npm start` does; bad flags are reported before any build.
 */
import { isBuildCurrent } from './build-inputs.mjs';
import { ensureDependencies, run, runOrExit } from './setup.mjs';

const SOURCE_ENTRY = ['--import', 'tsx', 'src/server/simulator-main.ts'];
const flags = process.argv.slice(2);

ensureDependencies();
// --help and --check start nothing: the sources answer them without a build.
if (flags.includes('--help') || flags.includes('--check')) process.exit(run(process.execPath, [...SOURCE_ENTRY, ...flags]));
if (!isBuildCurrent()) {
  if (run(process.execPath, [...SOURCE_ENTRY, '--check', ...flags], { stdio: ['inherit', 'ignore', 'inherit'] }) !== 0) process.exit(1);
  console.log('Building (only when the sources changed)...');
  runOrExit('npm', ['run', '--silent', 'build']);
}

// As in `npm start`: were npm itself killed, this process would be left under another parent.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 1000).unref();

process.setSourceMapsEnabled(true);
await import('../dist/server/simulator-main.js');
