/**
 * The simulator's backfill: on a provider's first start (no history in the journal), its
 * simulated center starts days back and the calls that ended meanwhile go into the journal, so
 * a new user sees a full week of analytics at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderScope } from '../../contract/paths.js';
import type { ServiceConfig } from '../config/config-schema.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import { isPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import type { HistoryStore } from './history-store.js';

const keyOf = (s: ProviderScope) => `${s.accountID}/${s.applicationID}/${s.providerID}`;

/** How much past each simulated provider should backfill: `days` when its journal is empty, else none. */
export const planBackfill = async (config: ServiceConfig, store: HistoryStore, days: number): Promise<(scope: ProviderScope) => number> => {
  const empty = new Set<string>();
  for (const account of config.accounts)
    for (const application of account.applications)
      for (const provider of application.providers) {
        const scope = { accountID: account.id, applicationID: application.id, providerID: provider.id };
        if (provider.type === 'simulator' && days > 0 && !(await store.hasHistory(scope))) empty.add(keyOf(scope));
      }
  return (scope) => (empty.has(keyOf(scope)) ? days * 86_400_000 : 0);
};

/** Writes what the simulators generated into the journal, before any sync runs. */
export const importBackfill = async (registry: ProviderRegistry, store: HistoryStore, log: FastifyBaseLogger): Promise<void> => {
  for (const runtime of registry.all()) {
    if (!isPhoneSystemSimulator(runtime.phoneSystem)) continue;
    const calls = runtime.phoneSystem.takeBackfill();
    if (calls.length === 0) continue;
    await store.importCalls(runtime.scope, calls);
    log.info({ provider: runtime.config.id, calls: calls.length }, 'backfilled the simulated past into the call journal');
  }
};
