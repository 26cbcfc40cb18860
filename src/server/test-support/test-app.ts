/** A service built for tests: a fixed multi-tenant config, a manual clock and scripted phone systems. */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema, type ServiceConfigInput } from '../config/config-schema.js';
import { ScriptedPhoneSystem } from './scripted-phone-system.js';
import { sha256 } from '../auth/token-index.js';
import type { HistoryStore } from '../history/history-store.js';
import { createTestHistory, type TestHistory } from './test-history.js';

export const T0 = Date.parse('2026-11-22T09:00:00.000Z');

export const tokens = {
  acmeAll: 'acme-all-token-0123456789',
  acmeSupportRead: 'acme-support-read-token-0123',
  acmeSalesWrite: 'acme-sales-write-token-0123',
  globex: 'globex-token-0123456789abcdef',
  /** Agent agt-1's own token: places calls only as agt-1. */
  acmeAgent: 'acme-agent-1-token-0123456789',
  /** A supervisor's token for support: reads, and may end calls. */
  acmeSupervisor: 'acme-supervisor-token-0123456789',
} as const;

export const testConfig = (overrides: Partial<ServiceConfigInput> = {}): ServiceConfigInput => ({
  accounts: [
    {
      id: 'acme',
      name: 'Acme',
      applications: [
        {
          id: 'support',
          name: 'Support',
          providers: [
            { id: 'pbx', name: 'Acme PBX', type: 'simulator' },
            { id: 'trunk', name: 'Acme Trunk', type: 'simulator' },
          ],
        },
        { id: 'sales', name: 'Sales', providers: [{ id: 'pbx', name: 'Sales PBX', type: 'simulator' }] },
      ],
      tokens: [
        { name: 'all', sha256: sha256(tokens.acmeAll).toString('hex'), applications: '*', permissions: ['calls:read', 'calls:write'] },
        { name: 'support-read', token: tokens.acmeSupportRead, applications: ['support'], permissions: ['calls:read'] },
        { name: 'sales-write', token: tokens.acmeSalesWrite, applications: ['sales'], permissions: ['calls:write'] },
        {
          name: 'agent-1',
          token: tokens.acmeAgent,
          applications: ['support'],
          permissions: ['calls:read', 'calls:write'],
          subscriberIDs: ['agt-1'],
        },
        { name: 'floor-supervisor', token: tokens.acmeSupervisor, applications: ['support'], permissions: ['calls:read', 'calls:control'] },
      ],
    },
    {
      id: 'globex',
      name: 'Globex',
      applications: [{ id: 'support', name: 'Support', providers: [{ id: 'pbx', name: 'Globex PBX', type: 'simulator' }] }],
      tokens: [{ name: 'all', token: tokens.globex, applications: '*', permissions: ['calls:read', 'calls:write'] }],
    },
  ],
  ...overrides,
});

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  /** Where the app's call journal lives, to reopen it after the app closed. */
  history: TestHistory;
  /** The app's own journal, to seed past calls. */
  store: HistoryStore;
  /** Phone systems by "account/application/provider". */
  phones: Map<string, ScriptedPhoneSystem>;
  phone(key: string): ScriptedPhoneSystem;
  /** inject() with a bearer token. */
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
}

export interface TestAppOptions {
  /** Reuses a journal across apps (a restart); its owner then disposes of it. */
  history?: TestHistory;
  /** Where the app logs, for tests of what it writes (none by default). */
  logger?: BuildAppOptions['logger'];
  /** Where scheduled reports take their interval and agents reports. */
  reportSource?: BuildAppOptions['reportSource'];
}

export const buildTestApp = async (overrides: Partial<ServiceConfigInput> = {}, shared: TestAppOptions = {}): Promise<TestApp> => {
  const clock = new ManualClock(T0);
  const phones = new Map<string, ScriptedPhoneSystem>();
  const history = shared.history ?? (await createTestHistory());
  const store = await history.open();
  const app = await buildApp({
    config: serviceConfigSchema.parse(testConfig(overrides)),
    history: store,
    clock,
    autoSync: false,
    logger: shared.logger,
    ...(shared.reportSource ? { reportSource: shared.reportSource } : {}),
    createPhoneSystem: (_config, scope) => {
      const phone = new ScriptedPhoneSystem();
      phones.set(`${scope.accountID}/${scope.applicationID}/${scope.providerID}`, phone);
      return phone;
    },
  });
  if (!shared.history) app.addHook('onClose', () => history.dispose());
  await app.ready();
  return {
    app,
    clock,
    history,
    store,
    phones,
    phone: (key) => {
      const found = phones.get(key);
      if (!found) throw new Error(`no phone system ${key}`);
      return found;
    },
    as: (token, options) =>
      app.inject({ ...options, headers: { authorization: `Bearer ${token}`, ...(options.headers ?? {}) } }),
  };
};
