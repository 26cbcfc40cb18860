/**
 * People's sessions against machines' tokens: the live list (1,000 calls) read with a bearer
 * token, with an admin's session cookie (who sees every call, so the shared answer), and with a
 * supervisor's of one queue in ten (an answer cut to their calls on each request). Runs alternate.
 */
import autocannon from 'autocannon';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';

const LIST_PATH = '/v1/accounts/bench/applications/app/provider/pbx/calls';
const CALLS = 1000;

export interface SessionLoad {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface SessionRuns {
  seconds: number;
  rounds: number;
  token: SessionLoad;
  admin: SessionLoad;
  supervisor: SessionLoad;
}

const median = (runs: SessionLoad[]): SessionLoad => {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return { ...(sorted[Math.floor(sorted.length / 2)] as SessionLoad), errors: runs.reduce((sum, run) => sum + run.errors, 0) };
};

export const sessionRuns = async (seconds: number, rounds: number): Promise<SessionRuns> => {
  const service = await startChild('bench/servers/sessions-server.ts', ['--calls', String(CALLS)]);
  try {
    const headers = {
      token: { authorization: `Bearer ${BENCH_TOKEN}` },
      admin: { cookie: await service.ask<string>({ type: 'session', role: 'admin' }) },
      supervisor: { cookie: await service.ask<string>({ type: 'session', role: 'supervisor', queues: ['queue-0'] }) },
    };
    const runs: Record<keyof typeof headers, SessionLoad[]> = { token: [], admin: [], supervisor: [] };
    for (let round = 0; round < rounds; round += 1)
      for (const kind of ['token', 'admin', 'supervisor'] as const) {
        const result = await autocannon({
          url: `http://127.0.0.1:${service.port}${LIST_PATH}`,
          connections: 50,
          duration: seconds,
          headers: headers[kind],
        });
        runs[kind].push({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts + result.non2xx,
        });
      }
    return { seconds, rounds, token: median(runs.token), admin: median(runs.admin), supervisor: median(runs.supervisor) };
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
