/** Prometheus metrics: requests and latency per route, and per provider sync lag, live calls and fetches. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Registry } from 'prom-client';
import { paths } from '../../contract/paths.js';
import { sha256, TokenIndex } from '../auth/token-index.js';
import type { ServiceConfig } from '../config/config-schema.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { authenticate } from './auth-plugin.js';
import { RequestMeter } from './request-meter.js';
import type { RouteDoc } from './route-catalog.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a response written outside the framework's reply, as the response hook counts the others. */
    observeRequest(method: string, route: string, status: number, seconds: number): void;
  }
}

export interface MetricsOptions {
  config: ServiceConfig;
  registry: ProviderRuntimes;
}

const providerLabels = ['account', 'application', 'provider'] as const;

/**
 * /metrics names every account, application and provider, so it requires a token of its own
 * (it grants nothing else, and no tenant's token opens it); without one it is not served at all.
 */
const metricsTokenIndex = ({ enabled, tokenSha256, token }: ServiceConfig['metrics']): TokenIndex | undefined => {
  if (enabled === false) return undefined;
  const digest = tokenSha256 !== undefined ? Buffer.from(tokenSha256, 'hex') : token !== undefined ? sha256(token) : undefined;
  if (digest === undefined) return undefined;
  return new TokenIndex([
    { digest, principal: { accountID: '', tokenName: 'metrics', applications: new Set(), permissions: new Set(), subscribers: new Set() } },
  ]);
};

/** Wrapped with fastify-plugin so its response hook sees every route of the app. */
export const metricsPlugin = fp(async (app: FastifyInstance, { config, registry }: MetricsOptions) => {
  const prom = new Registry();
  // Counted outside prom-client, whose per-call label hashing showed at tens of thousands of requests a second.
  const requests = new RequestMeter({
    requestsName: 'callboard_http_requests_total',
    requestsHelp: 'HTTP requests answered',
    durationName: 'callboard_http_request_duration_seconds',
    durationHelp: 'Time to answer an HTTP request',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
  const eachProvider = (set: (labels: Record<string, string>, runtime: ReturnType<ProviderRuntimes['all']>[number]) => void) => () => {
    for (const runtime of registry.all())
      set({ account: runtime.scope.accountID, application: runtime.scope.applicationID, provider: runtime.scope.providerID }, runtime);
  };
  const lag: Gauge = new Gauge({
    name: 'callboard_provider_snapshot_age_seconds',
    help: 'Age of the provider snapshot that lists are served from (sync lag)',
    labelNames: providerLabels,
    registers: [prom],
    collect: eachProvider((labels, runtime) => {
      const age = runtime.sync.live.ageMs();
      if (age !== undefined) lag.set(labels, age / 1000);
    }),
  });
  const leads: Gauge = new Gauge({
    name: 'callboard_provider_sync_leader',
    help: 'Whether this instance polls the provider: 1 alone or as the cluster\'s leader, 0 as a follower',
    labelNames: providerLabels,
    registers: [prom],
    collect: eachProvider((labels, runtime) => leads.set(labels, runtime.sync.role === 'follower' ? 0 : 1)),
  });
  const live: Gauge = new Gauge({
    name: 'callboard_live_calls',
    help: 'Live (not ended) calls in the latest snapshot',
    labelNames: providerLabels,
    registers: [prom],
    collect: eachProvider((labels, runtime) => live.set(labels, runtime.sync.live.liveCount())),
  });
  const fetches: Counter = new Counter({
    name: 'callboard_provider_fetches_total',
    help: 'Call lists requested from the provider',
    labelNames: providerLabels,
    registers: [prom],
    collect() {
      fetches.reset();
      eachProvider((labels, runtime) => fetches.inc(labels, runtime.sync.counts.fetches))();
    },
  });
  const failures: Counter = new Counter({
    name: 'callboard_provider_fetch_failures_total',
    help: 'Call list requests to the provider that failed',
    labelNames: providerLabels,
    registers: [prom],
    collect() {
      failures.reset();
      eachProvider((labels, runtime) => failures.inc(labels, runtime.sync.counts.failures))();
    },
  });

  const observeRequest = (method: string, route: string, status: number, seconds: number) =>
    requests.record(method, route, status, seconds);
  app.decorate('observeRequest', observeRequest);
  app.addHook('onResponse', (request, reply, done) => {
    observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const tokens = metricsTokenIndex(config.metrics);
  if (!tokens) return;
  const doc: RouteDoc = {
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description:
      "Requires the metrics token configured in `metrics.tokenSha256` (no tenant's token opens it): the metrics name every " +
      'account, application and provider. Without a metrics token the route is not served.',
    public: true,
    responses: { '200': { description: 'Text exposition format', content: { type: 'text/plain' } } },
    problems: ['unauthorized'],
  };
  app.get(paths.metrics(), { config: { doc } }, async (request, reply) => {
    authenticate(tokens, request.headers.authorization);
    // Both write the classic text format, each family apart from the next by a blank line; the registry's text ends in a newline.
    return reply.type(Registry.PROMETHEUS_CONTENT_TYPE).send([...requests.exposition(), await prom.metrics()].join('\n\n'));
  });
});
