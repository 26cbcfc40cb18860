/**
 * The service tests' global set-up: bundles each worker thread's entry (`*-worker.ts`) into one
 * file per run. From the sources a thread otherwise loads its whole module graph through tsx,
 * 0.5 to 1 s, and every app a test builds starts a history reader; from a bundle it takes ~0.15 s.
 * Watch mode keeps tsx: a bundle made at its start would go stale as the sources change.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { WORKER_BUNDLES_ENV } from '../worker-thread.js';

const SOURCES = 'src/server';
/** Inside the project, so the bundles find the native modules they leave out. */
const BUNDLES_PARENT = 'test-results';

const workerEntries = (): Record<string, string> =>
  Object.fromEntries(
    readdirSync(SOURCES, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('-worker.ts'))
      .map((file) => [basename(file, '.ts'), join(SOURCES, file)]),
  );

export const setup = async (project: TestProject): Promise<(() => void) | undefined> => {
  if (project.vitest.config.watch) return undefined;
  mkdirSync(BUNDLES_PARENT, { recursive: true });
  const dir = mkdtempSync(join(BUNDLES_PARENT, 'worker-bundles-'));
  await build({
    entryPoints: workerEntries(),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // A native addon and pg's optional native driver load from node_modules as they are.
    external: ['better-sqlite3', 'pg-native'],
    logLevel: 'warning',
  });
  process.env[WORKER_BUNDLES_ENV] = join(process.cwd(), dir);
  return () => {
    delete process.env[WORKER_BUNDLES_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
};
