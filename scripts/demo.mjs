/**
 * `npm run demo:<provider>` (sip, twilio, asterisk): install, build, then run the dashboard over that
 * provider's phone system on this machine, src/testbed/<provider>/<provider>-demo.ts; its flags follow.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDependencies, runOrExit } from './setup.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

/** The phone system each demo runs on this machine, from Debian's packages. */
const SYSTEM_NEEDS_OF = { sip: ['kamailio', 'kamailioWebsocket', 'kamailioAutheph', 'baresip', 'rtpengine'] };

const [provider, ...flags] = process.argv.slice(2);
const entry = `src/testbed/${provider}/${provider}-demo.ts`;
if (!provider || !existsSync(entry)) {
  console.error(`Usage: node scripts/demo.mjs <provider> [flags]: no demo at ${entry}`);
  process.exit(1);
}

ensureSystemPackages(SYSTEM_NEEDS_OF[provider] ?? []);
ensureDependencies();
runOrExit('npm', ['run', '--silent', 'build']);

// The demo stops its phone system and the service itself; pass stop signals on and wait for it.
const demo = spawn(process.execPath, ['--import', 'tsx', entry, ...flags], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => demo.kill(signal));
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
