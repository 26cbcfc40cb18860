/**
 * `npm run demo:cluster`'s cluster (scripts/demo-cluster.mjs starts PostgreSQL when DATABASE_URL
 * is not set, and builds): the simulators, three instances and HAProxy; Ctrl-C stops them all.
 */
import { Cluster } from './cluster.js';

const databaseURL = process.env.DATABASE_URL;
if (!databaseURL) {
  process.stderr.write('demo:cluster: DATABASE_URL is not set\n');
  process.exit(1);
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** One short line per log entry: which instance, how serious, what, and its details. */
const showLine = (instance: string, line: string) => {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    process.stdout.write(`  ${instance}  ${line}\n`);
    return;
  }
  const { level, time, msg, pid: _pid, hostname: _host, ...details } = entry;
  const at = new Date(Number(time)).toISOString().slice(11, 23);
  const rest = Object.entries(details).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  process.stdout.write(`  ${at} ${instance} ${(LEVELS[Number(level)] ?? String(level)).padEnd(5)} ${String(msg)}${rest.length ? `  (${rest.join(', ')})` : ''}\n`);
};

const cluster = await Cluster.start({ databaseURL, entry: 'built', logLevel: process.env.LOG_LEVEL ?? 'info', echo: showLine });
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\ndemo:cluster: ${signal}: stopping the balancer, the instances and the simulators\n`);
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

process.stdout.write(
  [
    '',
    `  Callboard cluster: ${cluster.instances.length} instances on one PostgreSQL, behind HAProxy.`,
    '',
    `  Dashboard through the balancer (one click, signs you in):  ${cluster.dashboardURL}`,
    '',
    ...cluster.instances.map((instance) => `    ${instance.name}: ${instance.url} (PID ${instance.program?.pid})`),
    ...cluster.simulators.map((simulator) => `    simulator ${simulator.id}: ${simulator.url} (PID ${simulator.program.pid})`),
    `    HAProxy's view of the instances: ${cluster.statsURL}`,
    '',
    '  Try a failover: kill -9 one instance\'s PID; the dashboard keeps its live data. Ctrl-C stops everything.',
    '',
  ].join('\n'),
);
