/**
 * Benchmark child process: the real service over a journal already filled (`--location <json>`),
 * with two tenants: `heavy` exports its history, `quiet` watches a live list of 100 calls.
 */
import { buildApp } from '../../src/server/app.js';
import { serviceConfigSchema } from '../../src/server/config/config-schema.js';
import { HistoryStore } from '../../src/server/history/history-store.js';
import type { HistoryLocation } from '../../src/server/history/open-history-database.js';
import { benchCalls, staticPhoneSystem } from '../support/bench-calls.js';
import { HEAVY_TENANT_TOKEN, QUIET_TENANT_TOKEN } from '../support/bench-token.js';

const locationAt = process.argv.indexOf('--location');
const location = JSON.parse(process.argv[locationAt + 1] ?? '') as HistoryLocation;

const tenant = (id: string, token: string) => ({
  id,
  name: id,
  applications: [{ id: 'app', name: `${id} app`, providers: [{ id: 'pbx', name: `${id} PBX`, type: 'simulator' }] }],
  tokens: [{ name: id, token, applications: '*', permissions: ['calls:read'] }],
});

const config = serviceConfigSchema.parse({
  rateLimitPerMinute: 1_000_000,
  accounts: [tenant('heavy', HEAVY_TENANT_TOKEN), tenant('quiet', QUIET_TENANT_TOKEN)],
});

const history = await HistoryStore.open(location);
const live = await benchCalls(100, Date.now());
const app = await buildApp({
  config,
  history,
  createPhoneSystem: (_providerConfig, scope) => staticPhoneSystem(scope.accountID === 'quiet' ? live : []),
});
await app.listen({ port: 0, host: '127.0.0.1' });
await app.providers.syncAll();
const address = app.server.address();
process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
