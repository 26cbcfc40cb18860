/** `npm run bench`: dependencies and a Chromium as for the tests, then the benchmarks (a few minutes). */
import { ensureChromium, ensureDependencies, runOrExit } from './setup.mjs';

ensureDependencies();
const chromium = ensureChromium();
runOrExit('node', ['--import', 'tsx', 'bench/run.ts', ...process.argv.slice(2)], {
  env: { ...process.env, ...(chromium ? { CHROMIUM_PATH: chromium } : {}) },
});
