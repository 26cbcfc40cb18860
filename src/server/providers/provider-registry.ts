/** Every configured provider with its phone system and sync loop, looked up by scope. */
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderScope } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import type { AccountConfig, ProviderConfig, ServiceConfig } from '../config/config-schema.js';
import { ProviderSync } from '../calls/provider-sync.js';
import type { HistoryStore } from '../history/history-store.js';
import type { PhoneSystem } from './phone-system.js';

export interface ProviderRuntime {
  scope: ProviderScope;
  account: AccountConfig;
  applicationName: string;
  config: ProviderConfig;
  phoneSystem: PhoneSystem;
  sync: ProviderSync;
}

export type PhoneSystemFactory = (config: ProviderConfig, scope: ProviderScope) => PhoneSystem;

const keyOf = (s: ProviderScope) => `${s.accountID}/${s.applicationID}/${s.providerID}`;

export class ProviderRegistry {
  private readonly byKey = new Map<string, ProviderRuntime>();

  constructor(config: ServiceConfig, createPhoneSystem: PhoneSystemFactory, history: HistoryStore, clock: Clock, log: FastifyBaseLogger) {
    for (const account of config.accounts)
      for (const application of account.applications)
        for (const provider of application.providers) {
          const scope = { accountID: account.id, applicationID: application.id, providerID: provider.id };
          const phoneSystem = createPhoneSystem(provider, scope);
          const sync = new ProviderSync(phoneSystem, {
            providerID: provider.id,
            providerName: provider.name,
            intervalMs: provider.syncIntervalMs,
            requestTimeoutMs: provider.requestTimeoutMs,
            staleAfterMs: provider.staleAfterMs,
            clock,
            log,
            journal: history.journal(scope),
          });
          this.byKey.set(keyOf(scope), { scope, account, applicationName: application.name, config: provider, phoneSystem, sync });
        }
  }

  get(scope: ProviderScope): ProviderRuntime | undefined {
    return this.byKey.get(keyOf(scope));
  }

  all(): ProviderRuntime[] {
    return [...this.byKey.values()];
  }

  startSync(): void {
    for (const runtime of this.byKey.values()) runtime.sync.start();
  }

  /** One poll of every provider, for tests and start-up. */
  async syncAll(): Promise<void> {
    await Promise.all(this.all().map((runtime) => runtime.sync.syncOnce()));
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((runtime) => runtime.sync.stop()));
    await Promise.all(this.all().map((runtime) => runtime.phoneSystem.close()));
  }
}
