/** Benchmark child process: the real service on a port, over a chosen provider. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/server/app.js';
import { serviceConfigSchema } from '../../src/server/config/config-schema.js';
import { HistoryStore } from '../../src/server/history/history-store.js';
import { webRootIfBuilt } from '../../src/server/http/web-app-plugin.js';
import { phoneSystemFactory } from '../../src/server/runtime/phone-system-factory.js';
import { systemClock } from '../../src/server/clock.js';
import { BENCH_METRICS_TOKEN, BENCH_TOKEN } from '../support/bench-token.js';
import { benchCalls, churningPhoneSystem, staticPhoneSystem } from '../support/bench-calls.js';

const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};

const provider = arg('provider', 'static');
const count = Number(arg('calls', '1000'));
const agents = Number(arg('agents', '200'));

const config = serviceConfigSchema.parse({
  rateLimitPerMinute: 1_000_000,
  metrics: { token: BENCH_METRICS_TOKEN },
  accounts: [
    {
      id: 'bench',
      name: 'Bench',
      applications: [
        {
          id: 'app',
          name: 'Bench app',
          providers: [{ id: 'pbx', name: 'Bench PBX', type: 'simulator', settings: { seed: 3, agents, control: true } }],
        },
      ],
      tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
    },
  ],
});

const calls = provider === 'simulator' ? [] : await benchCalls(count);
// A fresh embedded journal per run, so every benchmark starts from the same empty history.
const dataDir = mkdtempSync(join(tmpdir(), 'callboard-bench-'));
const app = await buildApp({
  config,
  history: await HistoryStore.open({ kind: 'embedded', file: join(dataDir, 'callboard.db') }),
  webRoot: webRootIfBuilt(fileURLToPath(new URL('../../dist/web/', import.meta.url))),
  createPhoneSystem: (providerConfig, scope) =>
    provider === 'static'
      ? staticPhoneSystem(calls)
      : provider === 'churn'
        ? churningPhoneSystem(calls)
        : phoneSystemFactory(systemClock)(providerConfig, scope),
});
await app.listen({ port: 0, host: '127.0.0.1' });
await app.providers.syncAll();
const address = app.server.address();
process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () =>
  void app.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }),
);
