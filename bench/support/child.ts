/** Benchmark servers run in child processes, so the load generator does not share their CPU time. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  port: number;
  stop: () => Promise<void>;
  /** Everything the child wrote to its stdout so far. */
  output: () => string;
}

export interface ChildOptions {
  /**
   * Runs the child at this nice value (Linux `nice`): for a load generator standing in for clients
   * on other machines, whose work should take no CPU time from the service measured here.
   */
  nice?: number;
}

export const startChild = (script: string, args: string[], { nice }: ChildOptions = {}): Promise<Child> =>
  new Promise((resolve, reject) => {
    const command = [process.execPath, '--import', 'tsx', script, ...args];
    const [program, ...rest] = nice === undefined ? command : ['nice', '-n', String(nice), ...command];
    const child: ChildProcess = spawn(program as string, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        port: Number(match[1]),
        output: () => output,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}`));
    });
  });
