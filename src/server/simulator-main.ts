/**
 * Process entry of the standalone simulator: one simulated call center served over HTTP, so that
 * every instance of a cluster sees the same phone system. Reads its flags, listens, prints where,
 * and stops gracefully on SIGTERM or SIGINT.
 */
import { systemClock } from './clock.js';
import type { PhoneSystem } from './providers/phone-system.js';
import { createPhoneSystemSimulator } from './providers/simulator/phone-system-simulator.js';
import { FlagError, parseSimulatorFlags, SIMULATOR_USAGE, type SimulatorFlags } from './providers/simulator/remote/simulator-flags.js';
import { startSimulatorServer, type SimulatorServer } from './providers/simulator/remote/simulator-server.js';
import type { CenterBody } from './providers/simulator/remote/wire-contract.js';
import { resolveSimulatorOptions } from './providers/simulator/simulator-options.js';

const SHUTDOWN_GRACE_MS = 10_000;

const fail = (message: string): never => {
  process.stderr.write(`simulator: ${message}\n`);
  process.exit(1);
};

const readFlags = (): SimulatorFlags => {
  try {
    return parseSimulatorFlags(process.argv.slice(2));
  } catch (error) {
    if (error instanceof FlagError) return fail(`${error.message}\n\n${SIMULATOR_USAGE}`);
    throw error;
  }
};

const centerOf = (flags: SimulatorFlags): CenterBody => {
  const { seed, name, dialMode, agents, traffic, speed, keepEndedMs, emailDomain } = resolveSimulatorOptions({ clock: systemClock, ...flags.simulator });
  return { name, seed, dialMode, agents, traffic, speed, keepEndedMs, emailDomain, recordedCalls: flags.simulator.recordedCalls, control: flags.control };
};

const listen = async (flags: SimulatorFlags, phoneSystem: PhoneSystem, center: CenterBody): Promise<SimulatorServer> => {
  try {
    return await startSimulatorServer({
      phoneSystem,
      center,
      host: flags.host,
      port: flags.port,
      onInternalError: (error) => process.stderr.write(`simulator: internal error: ${(error as Error).stack ?? String(error)}\n`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`--port ${flags.port}: already in use on ${flags.host}; pick another (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return fail(`--host ${flags.host}: not an address of this machine`);
    throw error;
  }
};

const main = async () => {
  const flags = readFlags();
  if (flags.help) return void process.stdout.write(`${SIMULATOR_USAGE}\n`);
  if (flags.check) return void process.stdout.write('simulator: the flags are valid\n');

  const center = centerOf(flags);
  const simulator = createPhoneSystemSimulator({ clock: systemClock, ...flags.simulator });
  // Without --control the drills are not offered at all, as a provider whose config leaves `control` off.
  const { control, ...withoutControl } = simulator;
  const phoneSystem: PhoneSystem = flags.control ? { ...withoutControl, control } : withoutControl;
  const server = await listen(flags, phoneSystem, center);

  const shutdown = async (signal: string) => {
    process.stdout.write(`simulator: ${signal}: shutting down\n`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    // Closing the center first fails the requests it stalls (as a phone system going down), so none holds the server open.
    await simulator.close();
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  const drills = flags.control ? 'drills on' : 'drills off (--control to enable)';
  process.stdout.write(
    [
      `Callboard simulator listening on ${server.url}`,
      `  seed ${center.seed}, ${center.agents} agents, traffic ${center.traffic}, ${center.dialMode} dialing, speed ${center.speed}, ${drills}`,
      `  Point a simulator provider at it: "settings": { "url": "${server.url}" }`,
      '',
    ].join('\n'),
  );
};

void main();
