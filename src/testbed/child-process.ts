/** A program of the test bed run as a child in its own process group, its output's tail kept, stopped by PID. */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const TAIL_BYTES = 16 * 1024;

export interface RunningProgram {
  readonly name: string;
  readonly pid: number;
  /** The last output, for error messages. */
  output(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Finds a program on PATH and in the sbin directories, which a non-root PATH often lacks. */
export const findProgram = (program: string, installHint: string): string => {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  throw new Error(`${program} is not installed: ${installHint}`);
};

const exitOf = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });

export const startProgram = (
  name: string,
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  /** Also gets the output as it comes, for a demo that shows it. */
  echo?: (text: string) => void,
): RunningProgram => {
  // Its own process group: a Ctrl-C in the terminal reaches only us, and we stop the children in order.
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name} did not start (${command})`);
  let tail = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-TAIL_BYTES);
    echo?.(text);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = exitOf(child);
  const pid = child.pid;
  return {
    name,
    pid,
    output: () => tail,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async (graceMs = 3000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => {
        // The whole group: Kamailio's worker processes go with their main process.
        if (child.exitCode === null && child.signalCode === null) process.kill(-pid, 'SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
};
