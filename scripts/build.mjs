/** `npm run build`: the service (tsc) and the dashboard (vite) into dist/, stamped with the inputs it was built from. */
import { rmSync } from 'node:fs';
import { markBuildCurrent } from './build-inputs.mjs';
import { precompress } from './precompress.mjs';
import { runOrExit } from './setup.mjs';

rmSync('dist/.build-inputs', { force: true });
runOrExit('npx', ['tsc', '-p', 'tsconfig.server.json']);
runOrExit('npx', ['vite', 'build', '--logLevel', 'warn']);
// The dashboard's files go out compressed: made once here, sent as they are.
const sizes = precompress('dist/web');
const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
process.stdout.write(`dashboard: ${kib(sizes.raw)} of text, ${kib(sizes.brotli)} as brotli, ${kib(sizes.gzip)} as gzip\n`);
markBuildCurrent();
