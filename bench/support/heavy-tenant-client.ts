/**
 * Benchmark client process, apart from the one timing the quiet tenant so neither slows the
 * other's measurement: `concurrent` connections of the heavy tenant, each listing the last 7 days
 * back to back, until SIGTERM; then it prints what it got as one JSON line.
 */
import { Agent } from 'node:http';
import { HEAVY_TENANT_TOKEN } from './bench-token.js';
import { quantile, sleep, timedGet, type Answer } from './timed-get.js';

const [port, concurrent] = process.argv.slice(2).map(Number) as [number, number];
const WEEK_MS = 7 * 86_400_000;
const PATH = '/v1/accounts/heavy/applications/app/provider/pbx/calls';

const agent = new Agent({ keepAlive: true, maxSockets: concurrent });
const answers: Answer[] = [];
let stopped = false;

const loop = async () => {
  while (!stopped) {
    const from = new Date(Date.now() - WEEK_MS).toISOString();
    const answer = await timedGet(agent, port, `${PATH}?fromDate=${encodeURIComponent(from)}`, HEAVY_TENANT_TOKEN);
    answers.push(answer);
    // A refused list is asked again after the pause its Retry-After asks for.
    if (answer.status === 429) await sleep(1000);
  }
};

const done = Promise.all(Array.from({ length: concurrent }, loop));
process.stdout.write('ready 0\n');
process.once('SIGTERM', () => {
  stopped = true;
  void done.then(() => {
    const lists = answers.filter((a) => a.status === 200);
    const times = lists.map((a) => a.ms).sort((a, b) => a - b);
    const result = {
      answered: lists.length,
      refused: answers.filter((a) => a.status === 429).length,
      other: answers.filter((a) => a.status !== 200 && a.status !== 429).length,
      p50: quantile(times, 0.5),
      bodyBytes: lists[0]?.bytes ?? 0,
    };
    process.stdout.write(`result ${JSON.stringify(result)}\n`);
    agent.destroy();
  });
});
