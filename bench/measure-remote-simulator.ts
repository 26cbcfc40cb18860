/**
 * Measures what the wire costs a simulator provider whose settings.url points at a standalone
 * simulator process, against the same center run in this process: one list of the calls (what each
 * sync asks), and the past streamed for a backfill. Run: npx tsx bench/measure-remote-simulator.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { systemClock } from '../src/server/clock.js';
import type { PhoneSystem } from '../src/server/providers/phone-system.js';
import { createPhoneSystemSimulator } from '../src/server/providers/simulator/phone-system-simulator.js';
import { createRemoteSimulator } from '../src/server/providers/simulator/remote/remote-simulator.js';

const HOUR = 3_600_000;
const LISTS = 200;
const PAST_HOURS = 6;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

const startProcess = (flags: string[]): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/simulator-main.ts', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}: ${output}`)));
  });

const listTimes = async (phoneSystem: PhoneSystem) => {
  const times: number[] = [];
  let calls = 0;
  for (let i = 0; i < LISTS; i += 1) {
    const started = performance.now();
    calls = (await phoneSystem.listCalls(AbortSignal.timeout(10_000))).length;
    times.push(performance.now() - started);
  }
  return { calls, p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
};

const pastRate = async (phoneSystem: PhoneSystem) => {
  const to = Date.now() - 5 * 60_000;
  const range = { since: to - PAST_HOURS * HOUR, from: to - PAST_HOURS * HOUR, to };
  const started = performance.now();
  let calls = 0;
  for await (const batch of phoneSystem.backfill?.(range, AbortSignal.timeout(600_000)) ?? []) calls += batch.calls.length;
  const seconds = (performance.now() - started) / 1000;
  return { calls, seconds, perSecond: calls / seconds };
};

const measure = async (agents: number, traffic: number) => {
  const flags = ['--port', '0', '--seed', '7', '--agents', String(agents), '--traffic', String(traffic)];
  const { child, url } = await startProcess(flags);
  try {
    const local = createPhoneSystemSimulator({ clock: systemClock, seed: 7, name: 'simulator', agents, traffic, recordedCalls: 200_000 });
    const remote = createRemoteSimulator({ url, requestTimeoutMs: 10_000 });
    const [localList, remoteList] = [await listTimes(local), await listTimes(remote)];
    const [localPast, remotePast] = [await pastRate(local), await pastRate(remote)];
    console.log(`\n${agents} agents x traffic ${traffic}: ${remoteList.calls} calls listed`);
    console.log(`  list p50 / p99: in process ${ms(localList.p50)} / ${ms(localList.p99)}, over the wire ${ms(remoteList.p50)} / ${ms(remoteList.p99)}`);
    console.log(
      `  the past (${PAST_HOURS} h): in process ${localPast.calls} calls in ${localPast.seconds.toFixed(1)} s (${Math.round(localPast.perSecond)}/s),` +
        ` over the wire ${remotePast.calls} calls in ${remotePast.seconds.toFixed(1)} s (${Math.round(remotePast.perSecond)}/s)`,
    );
    await local.close();
    await remote.close();
  } finally {
    child.kill('SIGTERM');
  }
};

await measure(24, 1);
await measure(1000, 4);
