/** `npm start`: install, build, and start the service (the simulator demo unless CALLBOARD_CONFIG is set). */
import { ensureDependencies, runOrExit } from './setup.mjs';

ensureDependencies();
runOrExit('npm', ['run', '--silent', 'build']);
runOrExit('node', ['--enable-source-maps', 'dist/server/main.js']);
