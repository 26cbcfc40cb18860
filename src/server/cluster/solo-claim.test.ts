/**
 * Several instances on one PostgreSQL without "cluster" (what an operator does by scaling a
 * deployment): the first syncs its providers alone; a second refuses to start, naming the fix,
 * instead of polling the providers again and journaling every call twice.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { createTestHistory, historyKind, type TestHistory } from '../test-support/test-history.js';
import { SoloRefused } from './solo-claim.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const accounts = [
  {
    id: 'acme',
    name: 'Acme',
    applications: [{ id: 'support', name: 'Support', providers: [{ id: 'pbx', name: 'PBX', type: 'simulator', syncIntervalMs: 100 }] }],
    tokens: [],
  },
];
const solo = serviceConfigSchema.parse({ accounts });
const clustered = serviceConfigSchema.parse({ accounts, cluster: { instances: 2 } });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sharedHistory = async () => {
  const history = await createTestHistory();
  cleanups.push(() => history.dispose());
  return history;
};

const instance = async (history: TestHistory, name: string, config = solo) => {
  const app = await buildApp({ config, history: await history.open(), instanceName: name, createPhoneSystem: () => new ScriptedPhoneSystem() });
  cleanups.push(() => app.close());
  return app;
};

const fetchesOf = (app: FastifyInstance) => app.providers.get(scope)?.sync.counts.fetches ?? 0;

// Only a shared database can be shared: the service suite's PostgreSQL run (DATABASE_URL) runs these.
describe.skipIf(historyKind !== 'postgres')('instances on one database without "cluster"', () => {
  it('lets the first sync alone, and refuses the second with the fix named, before it lists or writes anything', async () => {
    const history = await sharedHistory();
    const first = await instance(history, 'first');
    await first.ready();
    const second = await instance(history, 'second');
    const refusal = second.ready();
    await expect(refusal).rejects.toBeInstanceOf(SoloRefused);
    await expect(refusal).rejects.toThrow(/another instance already syncs provider "acme\/support\/pbx" on this database.*"cluster": \{ "instances": N \}/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fetchesOf(first)).toBeGreaterThan(2);
    expect(fetchesOf(second)).toBe(0);
  });

  it('lets another start once the first stopped: the claim goes with it', async () => {
    const history = await sharedHistory();
    const first = await instance(history, 'first');
    await first.ready();
    await first.close();
    const next = await instance(history, 'next');
    await next.ready();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fetchesOf(next)).toBeGreaterThan(0);
  });

  it('keeps a clustered instance started beside a solo one from leading what the solo one syncs', async () => {
    const history = await sharedHistory();
    const alone = await instance(history, 'alone');
    await alone.ready();
    const member = await instance(history, 'member', clustered);
    await member.ready();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(member.providers.get(scope)?.sync.role).toBe('follower');
    expect(fetchesOf(member)).toBe(0);
  });
});
