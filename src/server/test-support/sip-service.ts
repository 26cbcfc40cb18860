/** The service over a running SIP test bed, for the real-SIP tests: its list, its journal and its make-call route. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { listCallsResponseSchema, type CallRecord } from '../../contract/call-record.js';
import { paths } from '../../contract/paths.js';
import { queuesResponseSchema, type QueuesResponse } from '../../contract/queues.js';
import type { SipTestbed } from '../../testbed/sip/sip-testbed.js';
import { kamailioProviderConfig, type AgentSpec, type ProviderOptions } from '../../testbed/sip/testbed-provider.js';
import { buildApp } from '../app.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import type { HistoryStore } from '../history/history-store.js';
import { createTestHistory, type TestHistory } from './test-history.js';

const TOKEN = 'sip-test-token-0123456789';
/** A supervisor's token: reads, and ends calls. */
const SUPERVISOR_TOKEN = 'sip-supervisor-token-0123456789';
export const sipScope = { accountID: 'acme', applicationID: 'support', providerID: 'kamailio' };

export interface SipService {
  app: FastifyInstance;
  /** The service's journal, for what the API does not show (whether the service or Kamailio ended a call). */
  store: HistoryStore;
  get(url: string): Promise<LightMyRequestResponse>;
  placeCall(body: object): Promise<LightMyRequestResponse>;
  /** Ends a live call as the supervisor "floor-supervisor". */
  endCall(callID: string): Promise<LightMyRequestResponse>;
  /** The live list. */
  listCalls(): Promise<CallRecord[]>;
  /** The journal's calls live at any moment since `fromDate` (the list's window query). */
  journaled(fromDate: number): Promise<CallRecord[]>;
  /** The provider's queues and their figures. */
  queues(): Promise<QueuesResponse>;
  /** Polls the live list until `pick` finds what the test waits for. */
  listedUntil<T>(pick: (calls: CallRecord[]) => T | undefined, what: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export const startSipService = async (bed: SipTestbed, agents: readonly AgentSpec[], options: Omit<ProviderOptions, 'id'> = {}): Promise<SipService> => {
  const history: TestHistory = await createTestHistory();
  const store = await history.open();
  const app = await buildApp({
    history: store,
    config: serviceConfigSchema.parse({
      accounts: [
        {
          id: sipScope.accountID,
          name: 'Acme',
          applications: [{ id: sipScope.applicationID, name: 'Support', providers: [kamailioProviderConfig(bed, agents, options)] }],
          tokens: [
            { name: 'all', token: TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] },
            { name: 'floor-supervisor', token: SUPERVISOR_TOKEN, applications: '*', permissions: ['calls:read', 'calls:control'] },
          ],
        },
      ],
    }),
  });
  await app.ready();

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
  const listCalls = async () => listCallsResponseSchema.parse((await get(paths.listCalls(sipScope))).json()).calls;
  return {
    app,
    store,
    get,
    placeCall: (body) =>
      app.inject({
        method: 'POST',
        url: paths.makeCall(sipScope),
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      }),
    endCall: (callID) => app.inject({ method: 'DELETE', url: paths.call(sipScope, callID), headers: { authorization: `Bearer ${SUPERVISOR_TOKEN}` } }),
    listCalls,
    queues: async () => queuesResponseSchema.parse((await get(paths.queues(sipScope))).json()),
    journaled: async (fromDate) =>
      listCallsResponseSchema.parse((await get(`${paths.listCalls(sipScope)}?fromDate=${new Date(fromDate).toISOString()}`)).json()).calls,
    listedUntil: async (pick, what, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const calls = await listCalls();
        const found = pick(calls);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms; listed: ${JSON.stringify(calls)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: async () => {
      await app.close();
      await history.dispose();
    },
  };
};
