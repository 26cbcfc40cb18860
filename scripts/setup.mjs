/** Set-up shared by the README's commands: dependencies, and a Chromium for the browser tests. */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isBuildCurrent } from './build-inputs.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

export const run = (command, args, options = {}) => {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

export const runOrExit = (command, args, options) => {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
};

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** Installs dependencies from the lockfile when they are missing or older than it. */
export const ensureDependencies = () => {
  const installed = 'node_modules/.package-lock.json';
  if (existsSync(installed) && mtime(installed) >= mtime('package-lock.json')) return;
  console.log('Installing dependencies (npm ci)...');
  runOrExit('npm', ['ci', '--no-audit', '--no-fund']);
};

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium for Playwright: CHROMIUM_PATH if set, else Debian's package (installed when missing). */
export const ensureChromium = () => {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) {
      console.error(`CHROMIUM_PATH is set to ${configured}, which does not exist.`);
      process.exit(1);
    }
    return configured;
  }
  ensureSystemPackages(['chromium']);
  return DEBIAN_CHROMIUM;
};

/**
 * Builds when the sources changed since the last build. `check` runs first, from the sources, and
 * returns an exit status: a bad config or flag is reported at once, not after the build.
 */
export const buildWhenChanged = (check, what) => {
  if (isBuildCurrent()) return;
  if (check() !== 0) process.exit(1);
  console.log(`Building ${what} (only when the sources changed)...`);
  runOrExit('npm', ['run', '--silent', 'build']);
};

/**
 * npm sends stop signals to its direct child only; were npm itself killed, this process would be
 * left running under another parent. Noticing that is the same as being asked to stop.
 */
export const stopWhenOrphaned = () => {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 1000).unref();
};
