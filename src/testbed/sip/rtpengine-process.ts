/**
 * rtpengine (Debian's `rtpengine-daemon`) as a program of the test bed: in userspace (`--table=-1`,
 * no kernel module, no systemd), on 127.0.0.1, its ng control port and media ports from a free
 * block, ready once it answers an ng `ping`.
 */
import { NgClient } from '../../server/providers/kamailio/rtpengine/ng-client.js';
import { findProgram, startProgram, type RunningProgram } from '../child-process.js';
import { freePortBlock } from '../free-ports.js';

export interface RunningRtpengine {
  readonly ngPort: number;
  readonly program: RunningProgram;
  stop(): Promise<void>;
}

/**
 * Media ports per rtpengine: two per side of each call (a click-to-call is two calls), two per
 * listener's stream, and rtpengine keeps an ended call's ports for its delete delay (30 s). 200 ran
 * out in the benchmark (20 click-to-calls, then 20 calls at once: 7 were never answered); the demo
 * keeps dozens of calls going.
 */
const MEDIA_PORTS = 2000;
const READY_WITHIN_MS = 10_000;

export const startRtpengine = async (): Promise<RunningRtpengine> => {
  const path = findProgram('rtpengine', 'install Debian\'s rtpengine-daemon (npm test does, as root)');
  const base = await freePortBlock(2 + MEDIA_PORTS);
  const ngPort = base;
  // Its command-line port too: the default (2224) would clash between test beds running at once.
  const cliPort = base + 1;
  const program = startProgram('rtpengine', path, [
    '--foreground',
    '--table=-1',
    '--interface=127.0.0.1',
    `--listen-ng=127.0.0.1:${ngPort}`,
    `--listen-cli=127.0.0.1:${cliPort}`,
    `--port-min=${base + 2}`,
    `--port-max=${base + 1 + MEDIA_PORTS}`,
    '--log-stderr',
    // RTPENGINE_LOG_LEVEL=7 shows every ICE check and DTLS packet, for a media test that fails.
    `--log-level=${process.env.RTPENGINE_LOG_LEVEL ?? 5}`,
  ], process.cwd());
  const client = new NgClient({ host: '127.0.0.1', port: ngPort, attemptTimeoutMs: 200, attempts: 1 });
  const deadline = Date.now() + READY_WITHIN_MS;
  try {
    for (;;) {
      if (program.exited()) throw new Error(`rtpengine exited at start:\n${program.output()}`);
      try {
        await client.ping();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`rtpengine did not answer ping within ${READY_WITHIN_MS / 1000} s: ${(error as Error).message}\n${program.output()}`);
      }
    }
  } catch (error) {
    await program.stop();
    throw error;
  } finally {
    client.close();
  }
  return { ngPort, program, stop: () => program.stop() };
};
