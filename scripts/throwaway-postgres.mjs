/**
 * A PostgreSQL server of our own for a test run or a demo: a fresh cluster in a temporary
 * directory, listening on a free loopback port only, with a trusted `callboard` superuser and one
 * database. Debian's server binaries; no systemd, no change to the machine's own clusters.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinDir } from './system-packages.mjs';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's `postgres` user. */
const serverUser = () => {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  if (!Number.isInteger(uid) || uid === 0) throw new Error('running as root needs the "postgres" user that Debian\'s postgresql package creates');
  return { name: 'postgres', uid, gid: id('-g') };
};

const asUser = (user, program, args) => (user ? ['runuser', ['-u', user.name, '--', program, ...args]] : [program, args]);

const runAs = (user, program, args) => {
  const result = spawnSync(...asUser(user, program, args), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${program} ${args[0] ?? ''} failed: ${(result.stderr || result.stdout || '').trim()}`);
  return result.stdout;
};

/**
 * Starts the server and creates `database`. Resolves to its URL and a `stop()` that is safe to
 * call more than once and from an exit handler (it is synchronous).
 */
export const startThrowawayPostgres = async ({ database = 'callboard' } = {}) => {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed (Debian package "postgresql")');
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'callboard-postgres-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  let running = false;
  const stop = () => {
    if (running) {
      spawnSync(...asUser(user, `${bin}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', 'stop']), { stdio: 'ignore' });
      running = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    runAs(user, `${bin}/initdb`, ['-D', data, '-A', 'trust', '-U', 'callboard', '-E', 'UTF8', '--no-sync']);
    runAs(user, `${bin}/pg_ctl`, ['-D', data, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', 'start']);
    running = true;
    runAs(user, `${bin}/createdb`, ['-h', '127.0.0.1', '-p', String(port), '-U', 'callboard', database]);
  } catch (error) {
    stop();
    throw error;
  }
  /** Stops the server at once (every connection is cut) and starts it again on the same port and data. */
  const restart = () => {
    runAs(user, `${bin}/pg_ctl`, ['-D', data, '-o', serverOptions, '-l', join(dir, 'server.log'), '-m', 'immediate', '-w', 'restart']);
  };
  return { url: `postgres://callboard@127.0.0.1:${port}/${database}`, port, stop, restart };
};
