/**
 * Benchmark child process: the real service on a port with people's sign-in configured, over a
 * phone system holding `--calls` live calls spread over 10 queues. It answers one question over
 * IPC, `session`: a session opened for a role (as a sign-in opens one), and its cookie.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app.js';
import type { Grants } from '../../src/server/auth/grants.js';
import { sessionDigest } from '../../src/server/auth/session-manager.js';
import { systemClock } from '../../src/server/clock.js';
import { serviceConfigSchema } from '../../src/server/config/config-schema.js';
import { HistoryStore } from '../../src/server/history/history-store.js';
import { cookieNames } from '../../src/server/http/cookies.js';
import { BENCH_TOKEN } from '../support/bench-token.js';
import { benchCalls, staticPhoneSystem } from '../support/bench-calls.js';
import { answerQuestions } from '../support/child.js';

const count = Number(process.argv[process.argv.indexOf('--calls') + 1] ?? 1000);
export const BENCH_QUEUES = Array.from({ length: 10 }, (_, i) => `queue-${i}`);

const config = serviceConfigSchema.parse({
  rateLimitPerMinute: 1_000_000,
  limits: { connections: 1_000_000, connectionsPerAddress: 0, requestsPerToken: 100_000 },
  accounts: [
    {
      id: 'bench',
      name: 'Bench',
      applications: [
        {
          id: 'app',
          name: 'Bench app',
          providers: [
            {
              id: 'pbx',
              name: 'Bench PBX',
              type: 'simulator',
              queues: BENCH_QUEUES.map((id) => ({ id, name: id, providerQueues: [id] })),
            },
          ],
        },
      ],
      tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
    },
  ],
  // Never asked: the sessions are opened here, as the callback opens them.
  auth: {
    publicURL: 'http://127.0.0.1:1',
    oidc: {
      issuer: 'http://127.0.0.1:2',
      clientID: 'bench',
      clientSecret: 'bench-secret',
      roles: [{ group: 'g', role: 'admin' }],
    },
  },
});

const dataDir = mkdtempSync(join(tmpdir(), 'callboard-bench-sessions-'));
const history = await HistoryStore.open({ kind: 'embedded', file: join(dataDir, 'callboard.db') });
const calls = (await benchCalls(count)).map((call, i) => ({ ...call, queueID: BENCH_QUEUES[i % BENCH_QUEUES.length] as string }));
const app = await buildApp({ config, history, clock: systemClock, createPhoneSystem: () => staticPhoneSystem(calls) });
app.addHook('onClose', async () => rmSync(dataDir, { recursive: true, force: true }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

let opened = 0;
answerQuestions({
  session: async (question) => {
    opened += 1;
    const id = `bench-session-${opened}-${'x'.repeat(24)}`;
    const grants: Grants = {
      roles: [question.role as Grants['roles'][number]],
      queues: (question.queues as string[] | undefined) ?? '*',
      subscribers: [],
      controlQueues: (question.queues as string[] | undefined) ?? '*',
    };
    const now = Date.now();
    await history.sessions.create({
      idDigest: sessionDigest(id),
      accountID: 'bench',
      subject: `person-${opened}`,
      email: `person-${opened}@bench.example`,
      name: 'Bench Person',
      grants: JSON.stringify(grants),
      csrfToken: 'bench-csrf',
      idToken: undefined,
      now,
      expiresAt: now + 3_600_000,
    });
    return `${cookieNames(false).session}=${id}`;
  },
});

await app.listen({ port: 0, host: '127.0.0.1' });
await app.providers.syncAll();
process.stdout.write(`ready ${(app.server.address() as { port: number }).port}\n`);
