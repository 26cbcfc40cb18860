/**
 * The README's run command as an operator meets it: `npm start` starts without rebuilding what is
 * already built, and a stop signal to whichever PID they hold (npm's, the service's) stops it all.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

interface Started {
  npm: ChildProcess;
  output: () => string;
  /** PID of the process serving HTTP, as its own log lines report it. */
  servicePID: number;
  dataDir: string;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const startWithNpm = async (): Promise<Started> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callboard-start-'));
  const npm = spawn('npm', ['start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CALLBOARD_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => /Server listening at/.test(output), { timeout: 30_000 }).toBe(true);
  const pid = /"pid":(\d+)/.exec(output)?.[1];
  if (!pid) throw new Error(`no pid in the service's log:\n${output}`);
  return { npm, output: () => output, servicePID: Number(pid), dataDir };
};

const stopped = async (started: Started) => {
  await expect.poll(() => alive(started.servicePID), { timeout: 15_000 }).toBe(false);
  rmSync(started.dataDir, { recursive: true, force: true });
};

test.describe.configure({ timeout: 90_000 });

test('npm start runs the built service without rebuilding it, and SIGTERM to npm stops the service', async () => {
  const started = await startWithNpm();
  expect(started.output()).not.toContain('Building the service');
  expect(started.npm.pid).not.toBe(started.servicePID);
  started.npm.kill('SIGTERM');
  await stopped(started);
  expect(started.output()).toContain('shutting down: finishing in-flight requests');
});

test('SIGTERM to the service PID stops the service and npm with it', async () => {
  const started = await startWithNpm();
  const npmExit = new Promise<number | null>((resolve) => started.npm.once('exit', resolve));
  process.kill(started.servicePID, 'SIGTERM');
  await stopped(started);
  expect(await npmExit).toBe(0);
});

test('a service left without its npm (npm killed outright) stops by itself', async () => {
  const started = await startWithNpm();
  started.npm.kill('SIGKILL');
  await stopped(started);
});

test('a bad config is reported with its file, line and column before anything starts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callboard-config-'));
  const file = join(dir, 'callboard.json');
  writeFileSync(file, '{\n  "accounts": [\n    { "id": "acme" "name": "Acme" }\n  ]\n}\n');
  const result = spawnSync(process.execPath, ['dist/server/main.js', '--check'], {
    env: { ...process.env, CALLBOARD_CONFIG: file },
    encoding: 'utf8',
  });
  rmSync(dir, { recursive: true, force: true });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`${file}:3:20: not valid JSON: a comma is missing`);
});
