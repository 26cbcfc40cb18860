/** Benchmark servers run in child processes, so the load generator does not share their CPU time. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  port: number;
  stop: () => Promise<void>;
}

export const startChild = (script: string, args: string[]): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        port: Number(match[1]),
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
