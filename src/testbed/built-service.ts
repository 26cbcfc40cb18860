/**
 * The built service (`dist/server/main.js`, after `npm run build`) as a process of its own, started
 * from a config as a user starts it: for the demos and the benchmarks. Stopped by PID, its
 * temporary directory (the config, and the journal unless given one) removed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProgram, type RunningProgram } from './child-process.js';
import { freePort } from './free-ports.js';

const START_TIMEOUT_MS = 60_000;
const POLL_MS = 20;
const STOP_GRACE_MS = 10_000;

export interface BuiltServiceOptions {
  /** Names its temporary directory (`callboard-<name>-…`). */
  name: string;
  /** The config, written to a file of its own; none: the service's built-in demo (`env.CALLBOARD_TOKEN` sets its token). */
  config?: object;
  /** A free one by default; give it when the config must name the service's URL (a webhook's base). */
  port?: number;
  /** The journal's directory; a throwaway one by default. */
  dataDir?: string;
  logLevel?: string;
  /** More of its environment. */
  env?: Record<string, string>;
  /** Stack traces that name the sources (a demo's); off to run it exactly as `npm start` does (a measure). */
  sourceMaps?: boolean;
  /** Resolved once it is ready (`/readyz`: every provider listed once), or once it lives (`/healthz`), to time the rest. */
  until?: 'ready' | 'live';
}

export interface BuiltService {
  readonly url: string;
  readonly port: number;
  readonly program: RunningProgram;
  /** SIGTERM (SIGKILL if it has not exited after `graceMs`, 10 s by default), then its temporary directory is removed. */
  stop(graceMs?: number): Promise<void>;
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.ok;
    },
    () => false,
  );

const waitUntilAnswers = async (url: string, program: RunningProgram) => {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(url))) {
    if (program.exited()) throw new Error(`the service exited:\n${program.output()}`);
    if (Date.now() > deadline) throw new Error(`the service did not answer ${url} within ${START_TIMEOUT_MS / 1000} s:\n${program.output()}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
};

export const startBuiltService = async ({
  name,
  config,
  port,
  dataDir,
  logLevel = 'warn',
  env = {},
  sourceMaps = true,
  until = 'ready',
}: BuiltServiceOptions): Promise<BuiltService> => {
  const dir = await mkdtemp(join(tmpdir(), `callboard-${name}-`));
  const servicePort = port ?? (await freePort());
  const url = `http://127.0.0.1:${servicePort}`;
  let program: RunningProgram | undefined;
  const stop = async (graceMs = STOP_GRACE_MS) => {
    await program?.stop(graceMs);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (config) await writeFile(join(dir, 'callboard.json'), JSON.stringify(config, null, 2));
    program = startProgram('service', process.execPath, [...(sourceMaps ? ['--enable-source-maps'] : []), 'dist/server/main.js'], process.cwd(), {
      ...(config ? { CALLBOARD_CONFIG: join(dir, 'callboard.json') } : {}),
      CALLBOARD_DATA_DIR: dataDir ?? dir,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      LOG_LEVEL: logLevel,
      ...env,
    });
    await waitUntilAnswers(`${url}${until === 'ready' ? '/readyz' : '/healthz'}`, program);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port: servicePort, program, stop };
};
