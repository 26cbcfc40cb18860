/** The standalone simulator started as a process for a test, from the sources, and stopped by its PID afterwards. */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';

/** How `npm run simulator` runs the process entry, minus the build: tsx compiles the sources as they load. */
export const SIMULATOR_ENTRY = ['--import', 'tsx', 'src/server/simulator-main.ts'];

const LISTENING = /listening on (http:\/\/\S+)/;
const START_TIMEOUT_MS = 20_000;

export interface SimulatorProcess {
  child: ChildProcess;
  /** The base URL it printed. */
  url: string;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** Resolves with its exit code once it exited (null when a signal ended it). */
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

/** Every process a test of the calling file started is killed after it, whatever the test did to it. */
export const stopSimulatorsAfterEach = (): void => {
  afterEach(async () => {
    for (const child of started.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // A stopped process (SIGSTOP) takes SIGKILL too.
      child.kill('SIGKILL');
      await exited;
    }
  });
};

/** Starts the simulator with `flags` and resolves once it says where it listens. */
export const startSimulatorProcess = async (flags: string[]): Promise<SimulatorProcess> => {
  const child = spawn(process.execPath, [...SIMULATOR_ENTRY, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    child.stdout?.on('data', () => {
      const match = LISTENING.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1] as string);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited with ${code}:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
};
