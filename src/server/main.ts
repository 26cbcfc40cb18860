/** Process entry: read the environment and config, build the app, listen, shut down gracefully. */
import type { FastifyInstance } from 'fastify';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SoloRefused } from './cluster/solo-claim.js';
import { readableLogStream } from './log-lines.js';
import { buildApp } from './app.js';
import { webRootIfBuilt } from './http/web-app-plugin.js';
import { ConfigError, demoConfig, loadConfigFile } from './config/load-config.js';
import type { ServiceConfig } from './config/config-schema.js';
import { HistoryStore } from './history/history-store.js';
import type { HistoryLocation } from './history/open-history-database.js';
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  CALLBOARD_CONFIG: z.string().min(1).optional(),
  CALLBOARD_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Set (to anything) for JSON logs in a terminal too. */
  LOG_JSON: z.string().optional(),
  CALLBOARD_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/callboard')
    .optional(),
  /** Names this instance in a cluster's logs and feeds; the host name and process ID by default. */
  CALLBOARD_INSTANCE: z.string().min(1).max(100).optional(),
});

/** PostgreSQL when DATABASE_URL is set, else the embedded file in the data directory. */
const historyLocation = (env: z.infer<typeof envSchema>): HistoryLocation =>
  env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL }
    : { kind: 'embedded', file: join(resolve(env.CALLBOARD_DATA_DIR), 'callboard.db') };

const openHistory = async (location: HistoryLocation): Promise<HistoryStore> => {
  try {
    return await HistoryStore.open(location);
  } catch (error) {
    const where = location.kind === 'embedded' ? location.file : 'DATABASE_URL';
    return fail(`cannot open the call history (${where}): ${(error as Error).message}`);
  }
};

/** In a cluster, how long a stopping instance answers as not ready before it closes: two of the balancer's checks. */
const CLUSTER_DRAIN_MS = 1500;

const fail = (message: string): never => {
  process.stderr.write(`callboard: ${message}\n`);
  process.exit(1);
};

const readEnv = () => {
  const parsed = envSchema.safeParse(process.env);
  if (parsed.success) return parsed.data;
  return fail(parsed.error.issues.map((issue) => `environment variable ${issue.path.join('.')}: ${issue.message}`).join('\n'));
};

const urlHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

const banner = (base: string, token: string, metricsToken: string, agentID: string) =>
  [
    '',
    '  Callboard demo is running with simulated phone systems.',
    '',
    `  Dashboard (one click, signs you in):  ${base}/#token=${token}`,
    '',
    '  API token for this run (shown once):',
    `    ${token}`,
    '',
    '  Try it:',
    `    curl -H "Authorization: Bearer ${token}" ${base}/v1/accounts/demo/applications/support/provider/pbx-main/calls`,
    `    curl -X POST -H "Authorization: Bearer ${token}" -H 'content-type: application/json' \\`,
    `      -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \\`,
    `      -d '{"providerSubscriberID":"${agentID}","remoteNumber":"15555550123"}' \\`,
    `      ${base}/v1/accounts/demo/applications/support/providers/pbx-main/calls`,
    `    API description: ${base}/v1/openapi.json`,
    `    Metrics (Prometheus; a token of their own): curl -H "Authorization: Bearer ${metricsToken}" ${base}/metrics`,
    '',
  ].join('\n');

/** A subscriber of the demo's first provider who can place calls, so the printed curl works as pasted. */
const demoAgentID = async (app: FastifyInstance) => {
  const [first] = app.providers.all();
  const subscribers = (await first?.phoneSystem.listSubscribers(AbortSignal.timeout(2000))) ?? [];
  return subscribers.find((s) => s.registered && s.active)?.providerSubscriberID ?? '<id from /subscribers>';
};

const readConfig = async (env: z.infer<typeof envSchema>): Promise<{ config: ServiceConfig; demo?: { token: string; metricsToken: string } }> => {
  try {
    if (env.CALLBOARD_CONFIG) return { config: await loadConfigFile(env.CALLBOARD_CONFIG) };
    const demo = demoConfig(env.CALLBOARD_TOKEN);
    return { config: demo.config, demo };
  } catch (error) {
    if (error instanceof ConfigError) return fail(`invalid configuration\n${error.message}`);
    throw error;
  }
};

const main = async () => {
  const env = readEnv();
  const { config, demo } = await readConfig(env);
  if (config.cluster && !env.DATABASE_URL)
    fail('the configuration\'s "cluster" needs the PostgreSQL database every instance shares: set DATABASE_URL');
  // `--check` validates the environment and the config, and starts nothing.
  if (process.argv.includes('--check')) {
    process.stdout.write(`callboard: configuration is valid (${env.CALLBOARD_CONFIG ?? 'the built-in demo'})\n`);
    return;
  }

  const webRoot = webRootIfBuilt(fileURLToPath(new URL('../web/', import.meta.url)));
  const app = await buildApp({
    config,
    history: await openHistory(historyLocation(env)),
    backfill: true,
    webRoot,
    ...(env.CALLBOARD_INSTANCE ? { instanceName: env.CALLBOARD_INSTANCE } : {}),
    logger: {
      level: env.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // Readable lines for a person at a terminal; JSON, the default, for files, pipes and collectors.
      ...(process.stdout.isTTY && !env.LOG_JSON ? { stream: readableLogStream(process.stdout) } : {}),
    },
  });
  const shutdown = async (signal: string) => {
    if (config.cluster) {
      // Not ready first, while still serving: the balancer's checks see it and send the next requests elsewhere.
      app.log.info({ signal, drainMs: CLUSTER_DRAIN_MS }, 'shutting down: draining');
      app.readiness.draining = true;
      await new Promise((resolve) => setTimeout(resolve, CLUSTER_DRAIN_MS));
    }
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`port ${env.PORT} on ${env.HOST} is already in use; set PORT to another port`);
    if (error instanceof SoloRefused) return fail(error.message);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const base = `http://${urlHost(env.HOST)}:${port}`;
  if (!webRoot) app.log.warn('the dashboard is not built (npm run build): serving the API only');
  if (demo) process.stdout.write(`${banner(base, demo.token, demo.metricsToken, await demoAgentID(app))}\n`);
};

void main();
