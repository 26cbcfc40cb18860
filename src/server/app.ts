/** Builds the service: one Fastify instance with a plugin per concern. Tests drive it with `inject()`. */
import { createServer, maxHeaderSize, type ServerOptions } from 'node:http';
import { hostname } from 'node:os';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerFactory, type FastifyServerOptions } from 'fastify';
import { ConcurrencySlots } from './auth/concurrency-slots.js';
import { RateLimiter } from './auth/rate-limiter.js';
import { TokenIndex } from './auth/token-index.js';
import { authRoutes, signInSetupOf, type SignInSetup } from './routes/auth-routes.js';
import { sessionsRoutes } from './routes/sessions-routes.js';
import { systemClock, type Clock } from './clock.js';
import { SyncCluster } from './cluster/sync-cluster.js';
import type { ServiceConfig } from './config/config-schema.js';
import { backfillSpanMs, HistoryBackfill } from './history/history-backfill.js';
import type { HistoryStore } from './history/history-store.js';
import { startRetention } from './history/retention.js';
import { authPlugin } from './http/auth-plugin.js';
import { ConnectionGuard } from './http/connection-guard.js';
import { corsPlugin } from './http/cors-plugin.js';
import { addJsonCompression } from './http/json-compression.js';
import { metricsPlugin } from './http/metrics-plugin.js';
import { ApiProblem } from './http/api-problem.js';
import { conditionalListFastPath, type FastPath } from './routes/conditional-list-fast-path.js';
import { methodNotAllowedPlugin } from './http/method-not-allowed-plugin.js';
import { problemsPlugin, sendProblem } from './http/problems-plugin.js';
import { answerOnSocket, clientErrorProblem } from './http/raw-problem.js';
import { RequestLogController } from './http/request-log-controller.js';
import { routeCatalogPlugin } from './http/route-catalog.js';
import { securityHeadersPlugin } from './http/security-headers-plugin.js';
import { streamSlotsPlugin } from './http/stream-slots.js';
import { webAppPlugin } from './http/web-app-plugin.js';
import { claimSolo, type SoloClaim } from './cluster/solo-claim.js';
import { analyticsRoutes } from './routes/analytics-routes.js';
import { agentsRoute } from './routes/agents-route.js';
import { queuesRoute } from './routes/queues-route.js';
import { callStreamRoute } from './routes/call-stream-route.js';
import { browserPhoneRoutes } from './routes/browser-phone-routes.js';
import { callsRoutes } from './routes/calls-routes.js';
import { callExportRoute } from './routes/call-export-route.js';
import { meRoute } from './routes/me-route.js';
import { agentReportRoute } from './routes/agent-report-route.js';
import { serviceLevelRoutes } from './routes/service-level-routes.js';
import { intervalReportRoute } from './routes/interval-report-route.js';
import { simulatorControlRoute } from './routes/simulator-control-route.js';
import { subscribersRoute } from './routes/subscribers-route.js';
import { systemRoutes } from './routes/system-routes.js';
import { webhookRoute } from './routes/webhook-route.js';
import { phoneSystemFactory } from './runtime/phone-system-factory.js';
import { ReportScheduler } from './reports/report-scheduler.js';
import type { ReportSource } from './reports/report-source.js';
import { journalReportSource } from './reports/journal-report-source.js';
import { smtpSender } from './reports/smtp-sender.js';
import { startQueueParameterRecording, type QueueParameterRecording } from './queues/queue-parameter-recorder.js';
import { ProviderRuntimes, type PhoneSystemFactory } from './runtime/provider-runtimes.js';

declare module 'fastify' {
  interface FastifyInstance {
    providers: ProviderRuntimes;
    /** Fills empty journals with their providers' past, when `backfill` is on. */
    historyBackfill: HistoryBackfill | undefined;
    /** Sends the scheduled reports of the config's `reports`; none without it. */
    reportScheduler: ReportScheduler | undefined;
    /** Set `draining` before closing to be reported not ready while still serving. */
    readiness: { draining: boolean };
  }
}

export interface BuildAppOptions {
  config: ServiceConfig;
  /** The call journal; the app closes it when it closes. */
  history: HistoryStore;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  createPhoneSystem?: PhoneSystemFactory;
  /** Directory of the built dashboard to serve at `/`; none serves the API only. */
  webRoot?: string;
  /** Start each provider's sync loop when the app is ready (off in tests, which sync by hand). */
  autoSync?: boolean;
  /** Fill a provider's empty journal with its past in the background, per `history.backfill` (off in tests unless asked). */
  backfill?: boolean;
  /** Names this instance in a cluster's feeds and logs. */
  instanceName?: string;
  /** Change-stream tuning, for tests and benchmarks. */
  streams?: { heartbeatMs?: number; maxBufferedBytes?: number };
  /** Where scheduled reports take their interval and agents reports (a test's own, say). */
  reportSource?: ReportSource;
}

export const BODY_LIMIT_BYTES = 16 * 1024;

/** A request slower than this is logged at info level; every other success only at debug. */
const SLOW_REQUEST_MS = 1000;

/**
 * A connection on which nothing moves for this long is closed (a client that stops reading its
 * answer, say). Streams send something more often than this to stay open.
 */
export const SOCKET_IDLE_TIMEOUT_MS = 120_000;

/** How often Node checks every connection against the header and request timeouts. */
const TIMEOUT_CHECK_EVERY_MS = 1000;

/**
 * The framework's own server, with one thing before it: the conditional list's fast path (set
 * once the app is built), and the framework's options applied as it would apply them itself.
 */
const serverWithFastPath =
  (fastPath: () => FastPath | undefined): FastifyServerFactory =>
  (handler, options) => {
    // The header timeout and the interval of its checks can only be given to the constructor.
    const server = createServer((options.http ?? {}) as ServerOptions, (request, response) => {
      if (!fastPath()?.(request, response)) handler(request, response);
    });
    const number = (name: string) => (typeof options[name] === 'number' ? options[name] : undefined);
    server.keepAliveTimeout = number('keepAliveTimeout') ?? server.keepAliveTimeout;
    server.requestTimeout = number('requestTimeout') ?? server.requestTimeout;
    server.setTimeout(number('connectionTimeout') ?? 0);
    const perSocket = number('maxRequestsPerSocket');
    if (perSocket) server.maxRequestsPerSocket = perSocket;
    return server;
  };

/** The dedicated connection through which this instance takes part in its cluster's syncs. */
const openSyncCluster = (options: BuildAppOptions, clock: Clock, log: FastifyBaseLogger): SyncCluster => {
  const location = options.history.location;
  if (location.kind !== 'postgres')
    throw new Error('the configuration\'s "cluster" needs the PostgreSQL database every instance shares: set DATABASE_URL');
  const staleAfter = Math.min(...options.config.accounts.flatMap((a) => a.applications.flatMap((app) => app.providers.map((p) => p.staleAfterMs))));
  return new SyncCluster({
    url: location.url,
    ...(location.schema === undefined ? {} : { schema: location.schema }),
    instance: options.instanceName ?? `${hostname()}/${process.pid}`,
    feeds: options.history.syncFeeds(location.schema === undefined ? 'callboard_sync' : `callboard_sync_${location.schema}`),
    clock,
    log,
    // A lead no one holds is taken within a quarter of the time after which lists would be refused.
    electEveryMs: Math.min(2000, Math.max(200, Math.floor(staleAfter / 4))),
  });
};

/** How often ended sessions and abandoned sign-ins are cleared from the database. */
const SESSION_PRUNE_EVERY_MS = 3_600_000;

/** People's sign-in, when the config has an identity provider. */
const signInSetup = (options: BuildAppOptions, clock: Clock, log: FastifyBaseLogger): SignInSetup | undefined => {
  const auth = options.config.auth;
  return auth && signInSetupOf(auth, options.config.accounts.map((account) => account.id), options.history.sessions, clock, log);
};

export const buildApp = async (options: BuildAppOptions): Promise<FastifyInstance> => {
  const clock = options.clock ?? systemClock;
  const { limits } = options.config;
  // Filled once the routes exist; until then every request goes to the framework.
  const fast: { path?: FastPath } = {};
  const app = Fastify({
    serverFactory: serverWithFastPath(() => fast.path),
    logger: options.logger ?? false,
    logController: new RequestLogController(SLOW_REQUEST_MS),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: SOCKET_IDLE_TIMEOUT_MS,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_EVERY_MS },
    // What Node's parser refuses, and requests that do not arrive in time, get a problem too.
    clientErrorHandler: (error, socket) => {
      const problem = clientErrorProblem(error, { headersKiB: maxHeaderSize / 1024, requestTimeoutMs: limits.requestTimeoutMs });
      if (problem) answerOnSocket(socket, problem);
      else socket.destroy();
    },
    // The router rejects undecodable URLs before any handler runs; answer them in our format too.
    frameworkErrors: (error, _request, reply) => {
      void sendProblem(reply, new ApiProblem('invalid_request', `The request URL is not valid: ${error.message}`));
    },
  });
  new ConnectionGuard(limits).attach(app.server);
  const cluster = options.config.cluster ? openSyncCluster(options, clock, app.log) : undefined;
  const registry = new ProviderRuntimes(
    options.config,
    options.createPhoneSystem ?? phoneSystemFactory(clock, app.log),
    options.history,
    clock,
    app.log,
    cluster && ((scope) => cluster.seat(scope)),
  );
  app.decorate('providers', registry);
  const { maxCalls } = options.config.history.backfill;
  const spanMs = backfillSpanMs(options.config.history);
  const historyBackfill =
    options.backfill && spanMs > 0
      ? new HistoryBackfill({ store: options.history, sources: registry.all(), spanMs, maxCalls, clock, log: app.log })
      : undefined;
  app.decorate('historyBackfill', historyBackfill);
  const reports = options.config.reports;
  const reportScheduler = reports
    ? new ReportScheduler({
        reports,
        timeZone: options.config.timeZone,
        providers: (scope) => registry.get(scope),
        history: options.history,
        source: options.reportSource ?? journalReportSource(registry, options.history, clock, options.config.timeZone),
        send: smtpSender(reports.smtp),
        clock,
        log: app.log,
        instance: options.instanceName ?? `${hostname()}/${process.pid}`,
      })
    : undefined;
  app.decorate('reportScheduler', reportScheduler);

  await app.register(routeCatalogPlugin);
  await app.register(problemsPlugin);
  await app.register(securityHeadersPlugin);
  // Every JSON answer the service makes, the API's and the OpenAPI document alike.
  addJsonCompression(app);
  await app.register(corsPlugin, { origins: options.config.corsOrigins });
  await app.register(metricsPlugin, { config: options.config, registry });
  await app.register(streamSlotsPlugin, { perToken: limits.streamsPerToken, total: limits.streams });
  let closing = false;
  const readiness = { draining: false };
  app.decorate('readiness', readiness);
  // Ready once every provider has a snapshot or a failure to tell, and no longer once closing: a balancer sends nothing until then.
  await app.register(systemRoutes, {
    ready: () => !closing && !readiness.draining && registry.all().every((runtime) => runtime.sync.live.settled),
    details: () => {
      const failed = reportScheduler?.failures() ?? [];
      return failed.length ? { reportsFailing: failed } : undefined;
    },
  });
  if (options.webRoot) await app.register(webAppPlugin, { root: options.webRoot });
  const signIn = signInSetup(options, clock, app.log);
  await app.register(authRoutes, { signIn, registry, clock });
  const heavyQueries = new ConcurrencySlots('heavy-queries', { perToken: limits.heavyQueriesPerToken, total: limits.heavyQueries });
  const tokens = TokenIndex.fromConfig(options.config);
  // In a cluster each instance takes its share of a token's rate; the balancer spreads requests evenly.
  const rateLimitPerMinute = Math.ceil(options.config.rateLimitPerMinute / (options.config.cluster?.instances ?? 1));
  const limiter = new RateLimiter(rateLimitPerMinute, clock);
  await app.register(async (api) => {
    await api.register(authPlugin, {
      tokens,
      limiter,
      rateLimitPerMinute,
      failedAuthPerMinute: limits.failedAuthPerMinute,
      // The total needs no cap of its own here: the connection cap bounds it.
      requestSlots: new ConcurrencySlots('requests', { perToken: limits.requestsPerToken, total: Number.POSITIVE_INFINITY }),
      clock,
      ...(signIn
        ? {
            sessions: {
              manager: signIn.sessions,
              cookieName: signIn.cookies.session,
              origin: signIn.origin,
            },
          }
        : {}),
    });
    if (signIn) await api.register(sessionsRoutes, { sessions: signIn.sessions });
    await api.register(meRoute, { config: options.config, registry });
    await api.register(callsRoutes, {
      registry,
      history: options.history,
      heavyQueries,
      clock,
      idempotencyKeysPerApplication: limits.idempotencyKeysPerApplication,
    });
    await api.register(browserPhoneRoutes, { registry, history: options.history, clock });
    await api.register(analyticsRoutes, { registry, history: options.history, heavyQueries, clock, historyFill: historyBackfill });
    await api.register(serviceLevelRoutes, { registry, history: options.history, heavyQueries, clock, historyFill: historyBackfill });
    await api.register(agentReportRoute, { registry, history: options.history, heavyQueries, clock, timeZone: options.config.timeZone });
    await api.register(intervalReportRoute, { registry, history: options.history, heavyQueries, clock, timeZone: options.config.timeZone });
    await api.register(callExportRoute, {
      registry,
      history: options.history,
      heavyQueries,
      clock,
      retentionDays: options.config.history.retentionDays,
    });
    await api.register(subscribersRoute, { registry });
    await api.register(agentsRoute, { registry });
    await api.register(queuesRoute, { registry });
    await api.register(callStreamRoute, { registry, ...options.streams });
    await api.register(simulatorControlRoute, { registry });
  });
  // Signed by the provider instead of a token: outside the authenticated scope, with limits of its own.
  await app.register(webhookRoute, {
    registry,
    clock,
    perProviderPerMinute: limits.webhookRequestsPerMinute,
    refusedPerMinute: limits.failedAuthPerMinute,
  });
  // Last: it answers the methods each registered path does not serve.
  await app.register(methodNotAllowedPlugin);

  app.addHook('preClose', async () => {
    closing = true;
  });
  fast.path = conditionalListFastPath({
    tokens,
    limiter,
    registry,
    observe: app.observeRequest,
    // Debug logging writes a line per request, which only the framework's path does.
    open: () => !closing && app.log.level !== 'debug' && app.log.level !== 'trace',
  });

  // Alone on a shared database: the providers are claimed there before anything is written, so a
  // second instance without "cluster" refuses to start instead of syncing them too.
  let solo: SoloClaim | undefined;
  const location = options.history.location;
  if ((options.autoSync ?? true) && !cluster && location.kind === 'postgres')
    app.addHook('onReady', async () => {
      solo = await claimSolo({
        url: location.url,
        ...(location.schema === undefined ? {} : { schema: location.schema }),
        instance: options.instanceName ?? `${hostname()}/${process.pid}`,
        scopes: registry.all().map((runtime) => runtime.scope),
        log: app.log,
      });
    });
  // Planned before the first sync writes (hooks run in order), filled in the background after.
  if (historyBackfill)
    app.addHook('onReady', async () => {
      await historyBackfill.plan();
      historyBackfill.start();
    });
  let pruneSessions: NodeJS.Timeout | undefined;
  if (signIn && (options.autoSync ?? true))
    app.addHook('onReady', async () => {
      // Told at start, not at the first person's sign-in: a wrong issuer or an unreachable provider.
      void signIn.oidc.warmUp().then((failure) => {
        if (failure) app.log.warn(`people cannot sign in yet: ${failure}`);
      });
      pruneSessions = setInterval(() => {
        signIn.sessions.prune().catch((error: unknown) => app.log.warn({ err: error }, 'ended sessions could not be pruned'));
      }, SESSION_PRUNE_EVERY_MS).unref();
    });
  let stopRetention: (() => Promise<void>) | undefined;
  let queueParameters: QueueParameterRecording | undefined;
  if (options.autoSync ?? true)
    app.addHook('onReady', async () => {
      stopRetention = startRetention({ store: options.history, retentionDays: options.config.history.retentionDays, clock, log: app.log });
      cluster?.start();
      registry.startSync();
      reportScheduler?.start();
      queueParameters = startQueueParameterRecording({ history: options.history, sources: registry.all(), clock, log: app.log });
    });
  app.addHook('onClose', async () => {
    clearInterval(pruneSessions);
    await reportScheduler?.stop();
    await historyBackfill?.stop();
    await queueParameters?.stop();
    await registry.close();
    await solo?.release();
    await cluster?.stop();
    await stopRetention?.();
    await options.history.close();
  });
  return app;
};
