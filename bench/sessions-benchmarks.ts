/**
 * People's sessions against machines' tokens: the live list (1,000 calls) read with a bearer
 * token, with an admin's session cookie (who sees every call, so the shared answer), and with a
 * supervisor's of one queue in ten (an answer cut to their calls on each request). Runs alternate.
 */
import { load, medianLoad, type Load } from './http-benchmarks.js';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';

const LIST_PATH = '/v1/accounts/bench/applications/app/provider/pbx/calls';
const CALLS = 1000;

export interface SessionRuns {
  seconds: number;
  rounds: number;
  token: Load;
  admin: Load;
  supervisor: Load;
}

export const sessionRuns = async (seconds: number, rounds: number): Promise<SessionRuns> => {
  const service = await startChild('bench/servers/sessions-server.ts', ['--calls', String(CALLS)]);
  try {
    const headers = {
      token: { authorization: `Bearer ${BENCH_TOKEN}` },
      admin: { cookie: await service.ask<string>({ type: 'session', role: 'admin' }) },
      supervisor: { cookie: await service.ask<string>({ type: 'session', role: 'supervisor', queues: ['queue-0'] }) },
    };
    const runs: Record<keyof typeof headers, Load[]> = { token: [], admin: [], supervisor: [] };
    for (let round = 0; round < rounds; round += 1)
      for (const kind of ['token', 'admin', 'supervisor'] as const)
        runs[kind].push(await load({ url: `http://127.0.0.1:${service.port}${LIST_PATH}`, duration: seconds, headers: headers[kind] }));
    return { seconds, rounds, token: medianLoad(runs.token), admin: medianLoad(runs.admin), supervisor: medianLoad(runs.supervisor) };
  } finally {
    await service.stop();
  }
};

const fixed = (n: number, digits = 0) => n.toFixed(digits);

export const sessionSection = (
  r: SessionRuns,
): string => `The live list of ${CALLS.toLocaleString('en')} calls in 10 queues, 50 connections, ${r.seconds} s per run, the median of ${r.rounds} alternating runs each. A session is read from the database at most every 500 ms and trusted from memory between.

| who asks | requests/s | p50 | p99 | errors | against the token |
|---|---:|---:|---:|---:|---:|
| an API token (reference) | ${fixed(r.token.requestsPerSecond)} | ${r.token.p50} ms | ${r.token.p99} ms | ${r.token.errors} | 1 |
| an admin's session (every call: the shared answer) | ${fixed(r.admin.requestsPerSecond)} | ${r.admin.p50} ms | ${r.admin.p99} ms | ${r.admin.errors} | ${fixed(r.admin.requestsPerSecond / r.token.requestsPerSecond, 2)} |
| a supervisor's session (one queue of ten: cut per request) | ${fixed(r.supervisor.requestsPerSecond)} | ${r.supervisor.p50} ms | ${r.supervisor.p99} ms | ${r.supervisor.errors} | ${fixed(r.supervisor.requestsPerSecond / r.token.requestsPerSecond, 2)} |
`;
