/** One timed GET for load generators: the time runs from sending to the body's last byte. */
import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  ms: number;
  bytes: number;
}

export const timedGet = (agent: Agent, port: number, path: string, token: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** The quiet tenant of the tenants bench: its live list, polled as a desk of dashboards polls it, requests a second. */
export const QUIET_PATH = '/v1/accounts/quiet/applications/app/provider/pbx/calls';
export const QUIET_RATE = 200;

/** The quiet tenant's polls at a steady rate, whatever the answers' pace: a stalled service shows in the latency. */
export const quietPolls = async (port: number, seconds: number, token: string): Promise<Answer[]> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const answers: Promise<Answer>[] = [];
  const start = performance.now();
  for (let i = 0; i < seconds * QUIET_RATE; i += 1) {
    await sleep(start + (i * 1000) / QUIET_RATE - performance.now());
    answers.push(timedGet(agent, port, QUIET_PATH, token));
  }
  const result = await Promise.all(answers);
  agent.destroy();
  return result;
};
