/** `npm run build`: the service (tsc) and the dashboard (vite) into dist/, stamped with the inputs it was built from. */
import { rmSync } from 'node:fs';
import { markBuildCurrent } from './build-inputs.mjs';
import { runOrExit } from './setup.mjs';

rmSync('dist/.build-inputs', { force: true });
runOrExit('npx', ['tsc', '-p', 'tsconfig.server.json']);
runOrExit('npx', ['vite', 'build', '--logLevel', 'warn']);
markBuildCurrent();
