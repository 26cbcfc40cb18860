/** Starts the built service as a real process, as a user would, and reads what it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServiceProcess {
  baseURL: string;
  /** The demo token from the start-up banner, when the service runs the demo. */
  token: string;
  dashboardURL: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

const BANNER = /Dashboard \(one click, signs you in\):\s+(\S+)#token=(\S+)/;
const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;

/** The token of e2e/fixtures/service-config.json. */
export const E2E_TOKEN = 'e2e-token-0123456789abcdef';
export const E2E_CONFIG = 'e2e/fixtures/service-config.json';
/** The same config's supervisor: reads, and ends calls (calls:control). */
export const E2E_SUPERVISOR_TOKEN = 'e2e-supervisor-token-0123456789';
/** The same config's agent token: it places calls only as subscriber agt-0001. */
export const E2E_AGENT_TOKEN = 'e2e-agent-0001-token-0123456789';

/** Each service gets a fresh embedded journal, so a run starts as a new user would (with the simulator's backfill). */
export const startService = async (env: Record<string, string> = {}): Promise<ServiceProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callboard-e2e-'));
  const { DATABASE_URL: _postgres, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', CALLBOARD_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  // The demo prints a banner with its token; a configured service only logs where it listens.
  const configured = env.CALLBOARD_CONFIG !== undefined;
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within 15 s:\n${output}`)), 15_000);
    const check = () => {
      const found = configured ? LISTENING.exec(output) : BANNER.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before its banner:\n${output}`));
    });
  });

  const baseURL = new URL(match[1] as string).origin;
  const token = configured ? E2E_TOKEN : (match[2] as string);
  const dashboardURL = `${baseURL}/#token=${token}`;
  return {
    baseURL,
    token,
    dashboardURL,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
};
