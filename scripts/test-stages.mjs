/**
 * A test command's stages (`npm test`, `npm run test:quick`): each a timed child process whose
 * runner writes its JSON report to one folder; a stop signal reaches every child that runs, and
 * what the command started is stopped in the end. `finish` prints the closing block and exits.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { summarize } from './test-summary.mjs';

export const REPORTS = 'test-results/reports';

/** A vitest run of `projects` writing its JSON report to REPORTS/`report`, as a stage runs it. */
export const vitestStage = (report, projects) => ({
  command: 'npx',
  args: [
    'vitest',
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${REPORTS}/${report}`,
  ],
  // vitest prints colour codes even without a terminal.
  env: { NO_COLOR: '1' },
  report: { runner: 'vitest', file: `${REPORTS}/${report}` },
});

export class TestStages {
  #env;
  #stages = [];
  #running = new Set();
  #cleanups = [];

  /** `env`: the environment every stage starts from. */
  constructor(env) {
    this.#env = env;
    // Reports of an earlier run are never counted.
    rmSync(REPORTS, { recursive: true, force: true });
    mkdirSync(REPORTS, { recursive: true });
    process.on('exit', () => this.#cleanUp());
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
      process.on(signal, () => {
        for (const child of this.#running) child.kill(signal);
        this.#cleanUp();
        process.exit(130);
      });
  }

  /** Runs `cleanup` once the stages are over, or on a stop signal; the last added runs first. */
  onCleanUp(cleanup) {
    this.#cleanups.push(cleanup);
  }

  /** Records the time since the command started as a stage that passed: the set-up before the first stage. */
  recordSetUp() {
    this.#stages.push({ name: 'set-up', ok: true, ms: performance.now() });
  }

  /**
   * Runs one stage; resolves to whether it passed. Its output shows as it comes, or, with
   * `alongside` (for a stage running beside another), at once when it ends.
   */
  async run(name, { command, args, env = {}, report, alongside = false }) {
    const stage = { name, ok: false, report };
    this.#stages.push(stage);
    if (!alongside) console.log(`\n=== ${name} ===`);
    const started = performance.now();
    const { status, output } = await this.#spawn(command, args, { ...this.#env, ...env }, alongside);
    stage.ms = performance.now() - started;
    stage.ok = status === 0;
    if (alongside) process.stdout.write(`\n=== ${name} ===\n${output}`);
    return stage.ok;
  }

  /** Records a stage that could not run, as failed. */
  skip(name, reason) {
    console.log(`\n=== ${name} === skipped: ${reason}`);
    this.#stages.push({ name, ok: false, skipped: reason });
  }

  /** Stops what the command started, prints the closing block, and exits: 0 only if every stage passed. */
  finish() {
    this.#cleanUp();
    const { lines, ok } = summarize(this.#stages, performance.now());
    console.log(['', ...lines].join('\n'));
    process.exit(ok ? 0 : 1);
  }

  #spawn(command, args, env, alongside) {
    return new Promise((resolve) => {
      const child = spawn(command, args, { env, stdio: alongside ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
      this.#running.add(child);
      const chunks = [];
      child.stdout?.on('data', (chunk) => chunks.push(chunk));
      child.stderr?.on('data', (chunk) => chunks.push(chunk));
      const done = (status) => {
        this.#running.delete(child);
        resolve({ status, output: Buffer.concat(chunks).toString() });
      };
      // A command that cannot start reports an error, and may or may not close after it.
      child.once('error', (error) => {
        chunks.push(Buffer.from(`${command}: ${error.message}\n`));
        if (!alongside) console.error(`${command}: ${error.message}`);
        done(1);
      });
      child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
    });
  }

  #cleanUp() {
    for (const cleanup of this.#cleanups.splice(0).reverse()) cleanup();
  }
}
