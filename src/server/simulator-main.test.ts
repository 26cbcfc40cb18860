/** The standalone simulator as a process, started as `npm run simulator` starts it (from the sources here). */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Subscriber } from '../contract/subscriber.js';
import { ManualClock } from './clock.js';
import { callWithDeadline } from './providers/call-with-deadline.js';
import { ProviderFailure } from './providers/phone-system.js';
import { createPhoneSystemSimulator } from './providers/simulator/phone-system-simulator.js';
import { createRemoteSimulator } from './providers/simulator/remote/remote-simulator.js';
import { centerBodySchema } from './providers/simulator/remote/wire-contract.js';
import { SIMULATOR_ENTRY, startSimulatorProcess, stopSimulatorsAfterEach } from './test-support/simulator-process.js';

stopSimulatorsAfterEach();

const signal = () => new AbortController().signal;

describe('the standalone simulator process', { timeout: 30_000 }, () => {
  it('listens on a free port, says where and with what seed, and serves the center of its flags', async () => {
    const sim = await startSimulatorProcess(['--port', '0', '--seed', '7', '--name', 'pbx-main', '--agents', '40', '--dial-mode', 'direct', '--control']);
    expect(sim.output()).toContain('seed 7, 40 agents, traffic 1, direct dialing');
    expect(sim.output()).toContain(`"settings": { "url": "${sim.url}" }`);
    const center = centerBodySchema.parse(await (await fetch(`${sim.url}/v1/center`)).json());
    expect(center).toMatchObject({ seed: 7, name: 'pbx-main', agents: 40, dialMode: 'direct', control: true });
    // The same seed gives the same directory on either side of the wire. Who is registered follows the
    // agents' shifts, breaks and dropped phones at the moment each center was started, so it is not compared.
    const remote = createRemoteSimulator({ url: sim.url, requestTimeoutMs: 2000 });
    const inProcess = createPhoneSystemSimulator({ clock: new ManualClock(Date.now()), seed: 7, name: 'pbx-main', agents: 40 });
    const directory = (subscribers: Subscriber[]) => subscribers.map(({ registered: _registered, ...entry }) => entry);
    expect(directory(await remote.listSubscribers(signal()))).toEqual(directory(await inProcess.listSubscribers(signal())));
    const calls = await remote.listCalls(signal());
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.providerCallID.endsWith('@pbx.pbx-main.sim'))).toBe(true);
    // Its clock is the wall clock: calls start in the past and end by now.
    expect(calls.every((call) => call.startedAt <= Date.now() && (call.endedAt ?? 0) <= Date.now())).toBe(true);
  });

  it('stops gracefully on SIGTERM, ending its change streams and stalled requests, and is then unavailable', async () => {
    const sim = await startSimulatorProcess(['--port', '0', '--control']);
    const remote = createRemoteSimulator({ url: sim.url, requestTimeoutMs: 2000 });
    let ticks = 0;
    const stop = remote.watchChanges(() => (ticks += 1));
    await remote.control.setFailure('stall');
    const stalled = remote.listCalls(signal()).catch((reason: unknown) => reason);
    const started = Date.now();
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sim.output()).toContain('SIGTERM: shutting down');
    expect(await stalled).toMatchObject({ kind: 'unavailable' });
    await expect(remote.listCalls(signal())).rejects.toMatchObject({ kind: 'unavailable' });
    expect(ticks).toBeGreaterThanOrEqual(1);
    stop();
  });

  it('times out while the process hangs, and answers again once it runs on', async () => {
    const sim = await startSimulatorProcess(['--port', '0']);
    const remote = createRemoteSimulator({ url: sim.url, requestTimeoutMs: 2000 });
    await expect(remote.listCalls(signal())).resolves.not.toHaveLength(0);
    sim.child.kill('SIGSTOP');
    try {
      const error = await callWithDeadline(500, (s) => remote.listCalls(s)).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(ProviderFailure);
      expect(error).toMatchObject({ kind: 'timeout' });
    } finally {
      sim.child.kill('SIGCONT');
    }
    await expect(remote.listCalls(signal())).resolves.not.toHaveLength(0);
  });

  it('refuses a bad flag or a taken port, saying which flag and why', async () => {
    const bad = spawnSync(process.execPath, [...SIMULATOR_ENTRY, '--agents', 'many'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('simulator: --agents: must be an integer from 1 to 50000, got "many"');
    expect(bad.stderr).toContain('Usage: npm run simulator');
    const typo = spawnSync(process.execPath, [...SIMULATOR_ENTRY, '--agent', '40'], { encoding: 'utf8' });
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain('simulator: --agent: not a flag of the simulator (--help lists them)');
    const sim = await startSimulatorProcess(['--port', '0']);
    const port = new URL(sim.url).port;
    const taken = spawnSync(process.execPath, [...SIMULATOR_ENTRY, '--port', port], { encoding: 'utf8' });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain(`--port ${port}: already in use on 127.0.0.1`);
  });

  it('checks its flags without starting, and lists them on --help', () => {
    const check = spawnSync(process.execPath, [...SIMULATOR_ENTRY, '--check', '--port', '0', '--agents', '300'], { encoding: 'utf8' });
    expect(check.status).toBe(0);
    expect(check.stdout).toBe('simulator: the flags are valid\n');
    const help = spawnSync(process.execPath, [...SIMULATOR_ENTRY, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--port', '--seed', '--agents', '--traffic', '--dial-mode', '--control']) expect(help.stdout).toContain(flag);
  });
});
