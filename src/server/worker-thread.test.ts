import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker, WORKER_BUNDLES_ENV } from './worker-thread.js';

const bundles = process.env[WORKER_BUNDLES_ENV];
afterEach(() => {
  if (bundles === undefined) delete process.env[WORKER_BUNDLES_ENV];
  else process.env[WORKER_BUNDLES_ENV] = bundles;
});

const echo = async (): Promise<unknown> => {
  const worker = startWorker(import.meta.url, './test-support/echo-worker', {});
  try {
    worker.postMessage({ hello: 'thread' });
    const [answer] = await once(worker, 'message');
    return answer;
  } finally {
    await worker.terminate();
  }
};

describe('startWorker from the TypeScript sources', () => {
  // Watch mode keeps tsx (test-support/worker-bundles.ts).
  it.skipIf(process.env.VITEST_MODE === 'WATCH')('loads the bundle the tests made of each *-worker.ts', async () => {
    expect(bundles && existsSync(join(bundles, 'echo-worker.cjs'))).toBe(true);
    expect(await echo()).toEqual({ hello: 'thread' });
  });

  it('loads the entry through tsx without a bundle, as `npm run dev` does', async () => {
    delete process.env[WORKER_BUNDLES_ENV];
    expect(await echo()).toEqual({ hello: 'thread' });
  });
});
