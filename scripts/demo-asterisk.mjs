/** `npm run demo:asterisk`: install, build, then run the dashboard over the Asterisk provider against a double of Asterisk's REST Interface (src/testbed/asterisk/asterisk-demo.ts). */
import { spawn } from 'node:child_process';
import { ensureDependencies, runOrExit } from './setup.mjs';

ensureDependencies();
runOrExit('npm', ['run', '--silent', 'build']);

// The demo stops the service and the double itself; pass stop signals on and wait for it.
const demo = spawn(process.execPath, ['--import', 'tsx', 'src/testbed/asterisk/asterisk-demo.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => demo.kill(signal));
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
