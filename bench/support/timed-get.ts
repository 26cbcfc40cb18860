/** One timed GET for load generators: the time runs from sending to the body's last byte. */
import { request, type Agent } from 'node:http';

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
