/**
 * The Debian packages the tests need (a browser, a SIP registrar and phones, PostgreSQL): finds
 * what is missing and installs it with apt-get when this user can (root, or sudo without a
 * password); otherwise says exactly what to run, and stops.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const onPath = (program) => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;

/** Newest PostgreSQL server binaries Debian installed, e.g. /usr/lib/postgresql/15/bin. */
export const postgresBinDir = () => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(`${root}/${name}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? `${root}/${versions[0]}/bin` : undefined;
};

/** Whether Kamailio's module `name`.so is installed, in Debian's multiarch directory or a plain one. */
const kamailioModule = (name) => {
  const roots = ['/usr/lib', '/usr/lib64', '/usr/local/lib'];
  const arch = existsSync('/usr/lib') ? readdirSync('/usr/lib').map((dir) => `/usr/lib/${dir}`) : [];
  return [...roots, ...arch].some((root) => existsSync(`${root}/kamailio/modules/${name}.so`));
};

/** What each need is for, how to tell it is there, and the package that brings it. */
export const SYSTEM_NEEDS = {
  chromium: { for: 'the browser tests', package: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  kamailio: { for: 'the real SIP calls', package: 'kamailio', present: () => onPath('kamailio') || existsSync('/usr/sbin/kamailio') },
  kamailioWebsocket: { for: "browsers' SIP over WebSocket (the browser phone)", package: 'kamailio-websocket-modules', present: () => kamailioModule('websocket') },
  kamailioAutheph: { for: "the browser phone's time-limited credentials (auth_ephemeral)", package: 'kamailio-autheph-modules', present: () => kamailioModule('auth_ephemeral') },
  baresip: { for: 'the real SIP calls', package: 'baresip-core', present: () => onPath('baresip') },
  rtpengine: { for: 'the media relay of the real SIP calls (ng protocol, silent listening)', package: 'rtpengine-daemon', present: () => onPath('rtpengine') },
  postgresql: { for: 'the PostgreSQL run of the service suite and the cluster', package: 'postgresql', present: () => postgresBinDir() !== undefined },
  haproxy: { for: 'the load balancer in front of a cluster', package: 'haproxy', present: () => onPath('haproxy') || existsSync('/usr/sbin/haproxy') },
};

const canUseSudo = () => onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * Installs the missing ones among `names` (keys of SYSTEM_NEEDS) in one apt-get run. Exits with
 * the command to run when it cannot install them itself.
 */
export const ensureSystemPackages = (names) => {
  const missing = names.filter((name) => !SYSTEM_NEEDS[name].present());
  if (missing.length === 0) return;
  const packages = missing.map((name) => SYSTEM_NEEDS[name].package);
  const why = missing.map((name) => `  ${SYSTEM_NEEDS[name].package}: ${SYSTEM_NEEDS[name].for}`).join('\n');
  const command = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const root = process.getuid?.() === 0;
  if (!onPath('apt-get') || !(root || canUseSudo())) {
    console.error(
      `\nThese system packages are missing:\n${why}\n\n` +
        (onPath('apt-get')
          ? `Install them as root, then run the tests again:\n  sudo sh -c '${command}'\n`
          : `This machine has no apt-get: install the equivalent packages with its package manager, then run the tests again.\n`),
    );
    process.exit(1);
  }
  console.log(`Installing system packages with apt-get:\n${why}`);
  const prefix = root ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...packages]]) {
    const [program, ...rest] = [...prefix, 'apt-get', ...args];
    const result = spawnSync(program, rest, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`\napt-get ${args[0]} failed (exit ${result.status}). Run this as root, then the tests again:\n  ${command}\n`);
      process.exit(1);
    }
  }
  const still = missing.filter((name) => !SYSTEM_NEEDS[name].present());
  if (still.length) {
    console.error(`\napt-get finished, but these are still missing: ${still.map((n) => SYSTEM_NEEDS[n].package).join(', ')}`);
    process.exit(1);
  }
};
