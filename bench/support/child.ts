/**
 * Benchmark servers and load generators run in child processes, so the measuring process does
 * not share their CPU time. A child says `ready <port>` on stdout and may answer questions over IPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  port: number;
  pid: number;
  /** Sends a question to the child and resolves with its answer (see `answerQuestions`). */
  ask: <T>(question: Question) => Promise<T>;
  stop: () => Promise<void>;
  /** Everything the child wrote to its stdout so far. */
  output: () => string;
}

export interface ChildOptions {
  /** Node's own flags for the child (`--cpu-prof`, `--expose-gc`, ...). */
  nodeArgs?: string[];
  /**
   * Runs the child at this nice value (Linux `nice`): for a load generator standing in for clients
   * on other machines, whose work should take no CPU time from the service measured here.
   */
  nice?: number;
  /** How long the child may take to say `ready` (60 s unless told). */
  readyTimeoutMs?: number;
}

export interface Question {
  type: string;
  [field: string]: unknown;
}

interface Answer {
  id: number;
  answer?: unknown;
  error?: string;
}

export const startChild = (
  script: string,
  args: string[],
  { nodeArgs = [], nice, readyTimeoutMs = 60_000 }: ChildOptions = {},
): Promise<Child> =>
  new Promise((resolve, reject) => {
    const command = [process.execPath, ...nodeArgs, '--import', 'tsx', script, ...args];
    const [program, ...rest] = nice === undefined ? command : ['nice', '-n', String(nice), ...command];
    const child: ChildProcess = spawn(program as string, rest, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
    let asked = 0;
    child.on('message', (message: Answer) => {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(`${script}: ${message.error}`));
      else waiter?.resolve(message.answer);
    });
    let output = '';
    let written = '';
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${readyTimeoutMs / 1000} s`)),
      readyTimeoutMs,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      written += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      output = '';
      resolve({
        port: Number(match[1]),
        pid: child.pid ?? 0,
        output: () => written,
        ask: <T>(question: Question) =>
          new Promise<T>((answer, fail) => {
            asked += 1;
            pending.set(asked, { resolve: answer as (value: unknown) => void, reject: fail });
            child.send({ id: asked, question });
          }),
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
      for (const waiter of pending.values()) waiter.reject(new Error(`${script} exited with ${code}`));
      reject(new Error(`${script} exited with ${code}`));
    });
  });

/** In a child: answers the parent's questions with `handlers`, by question type. */
export const answerQuestions = (handlers: Record<string, (question: Question) => unknown>): void => {
  // A benchmark that died leaves no child behind.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: { id: number; question: Question }) => {
    const handler = handlers[message.question.type];
    void (async () => {
      try {
        if (!handler) throw new Error(`no handler for "${message.question.type}"`);
        process.send?.({ id: message.id, answer: await handler(message.question) });
      } catch (error) {
        process.send?.({ id: message.id, error: (error as Error).message });
      }
    })();
  });
};
