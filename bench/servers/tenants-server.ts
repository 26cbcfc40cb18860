/**
 * Benchmark child process: the real service with two tenants. `heavy` has a busy week in its
 * journal (`--week-calls`, 9,500 by default) for reports, or the journal already filled at
 * `--location <json>` (a history location) for exports; `quiet` watches a live list of 100 calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { serviceConfigSchema } from '../../src/server/config/config-schema.js';
import { HistoryStore } from '../../src/server/history/history-store.js';
import type { HistoryLocation } from '../../src/server/history/open-history-database.js';
import type { ProviderCall } from '../../src/server/providers/phone-system.js';
import { benchCalls, staticPhoneSystem } from '../support/bench-calls.js';
import { HEAVY_TENANT_TOKEN, QUIET_TENANT_TOKEN } from '../support/bench-token.js';

const WEEK = 7 * 86_400_000;
const weekCallsAt = process.argv.indexOf('--week-calls');
const weekCalls = weekCallsAt >= 0 ? Number(process.argv[weekCallsAt + 1]) : 9_500;

const tenant = (id: string, token: string) => ({
  id,
  name: id,
  applications: [{ id: 'app', name: `${id} app`, providers: [{ id: 'pbx', name: `${id} PBX`, type: 'simulator' }] }],
  tokens: [{ name: id, token, applications: '*', permissions: ['calls:read'] }],
});

const config = serviceConfigSchema.parse({
  // The quiet tenant's dashboards poll far more often than the per-token default allows; the heavy
  // tenant's four lists at a time stay well within it either way.
  rateLimitPerMinute: 1_000_000,
  accounts: [tenant('heavy', HEAVY_TENANT_TOKEN), tenant('quiet', QUIET_TENANT_TOKEN)],
});

/** `count` ended calls spread evenly over the week before `now`, with the fields a real center's calls have. */
const busyWeek = async (count: number, now: number): Promise<ProviderCall[]> => {
  const templates = await benchCalls(500, now);
  return Array.from({ length: count }, (_, i) => {
    const template = templates[i % templates.length] as ProviderCall;
    const startedAt = now - WEEK + Math.floor((i * WEEK) / count);
    return {
      ...template,
      callID: `week-${i}`,
      providerCallID: `week-${i}@pbx.bench`,
      startedAt,
      ...(template.answeredAt === undefined ? {} : { answeredAt: startedAt + 8_000 }),
      endedAt: startedAt + 240_000,
    };
  });
};

const locationAt = process.argv.indexOf('--location');
const given = locationAt >= 0 ? (JSON.parse(process.argv[locationAt + 1] ?? '') as HistoryLocation) : undefined;
// Without a journal of its own, one in a temporary directory with the heavy tenant's busy week.
const dataDir = given ? undefined : mkdtempSync(join(tmpdir(), 'callboard-bench-'));
const history = await HistoryStore.open(given ?? { kind: 'embedded', file: join(dataDir as string, 'callboard.db') });
const now = Date.now();
if (!given) await history.importCalls({ accountID: 'heavy', applicationID: 'app', providerID: 'pbx' }, await busyWeek(weekCalls, now));
const live = await benchCalls(100, now);
const app = await buildApp({
  config,
  history,
  createPhoneSystem: (_providerConfig, scope) => staticPhoneSystem(scope.accountID === 'quiet' ? live : []),
});
await app.listen({ port: 0, host: '127.0.0.1' });
await app.providers.syncAll();
const address = app.server.address();
process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () =>
  void app.close().then(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }),
);
