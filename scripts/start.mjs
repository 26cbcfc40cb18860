/** `npm start`: install, build, and start the service (the simulator demo unless CALLBOARD_CONFIG is set). */
import { spawn } from 'node:child_process';
import { ensureDependencies, runOrExit } from './setup.mjs';

ensureDependencies();
runOrExit('npm', ['run', '--silent', 'build']);

// The service runs as a child: pass signals on, so stopping `npm start` stops the service gracefully.
const service = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal));
service.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
