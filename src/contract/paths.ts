/** Path builders for every route, shared by the service (route patterns) and its clients (URLs). */

export interface ProviderScope {
  accountID: string;
  applicationID: string;
  providerID: string;
}

const seg = encodeURIComponent;
const applicationPath = (s: Omit<ProviderScope, 'providerID'>) =>
  `/v1/accounts/${seg(s.accountID)}/applications/${seg(s.applicationID)}`;

export const paths = {
  /** GET: list calls (singular `provider`, spec 4.1). */
  listCalls: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/calls`,
  /** POST: make a call (plural `providers`, spec 4.2). */
  makeCall: (s: ProviderScope) => `${applicationPath(s)}/providers/${seg(s.providerID)}/calls`,
  /** DELETE: end a live call (a supervisor's intervention; extension). */
  call: (s: ProviderScope, callID: string) => `${applicationPath(s)}/providers/${seg(s.providerID)}/calls/${seg(callID)}`,
  /** POST: time-limited SIP credentials for a subscriber's browser softphone (extension). */
  softphoneCredentials: (s: ProviderScope) => `${applicationPath(s)}/providers/${seg(s.providerID)}/softphone/credentials`,
  /** POST: start listening silently to a live call: answers an SDP offer (extension). */
  listen: (s: ProviderScope, callID: string) => `${applicationPath(s)}/providers/${seg(s.providerID)}/calls/${seg(callID)}/listen`,
  /** PUT: the listening browser's SDP answer; DELETE: stop listening (extension). */
  listener: (s: ProviderScope, callID: string, listenID: string) =>
    `${applicationPath(s)}/providers/${seg(s.providerID)}/calls/${seg(callID)}/listen/${seg(listenID)}`,
  /** GET: bucketed concurrency over a window, from the call journal (extension). */
  concurrency: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/concurrency`,
  /** GET: calls per subscriber over a window, from the call journal (extension). */
  subscriberActivity: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/subscriber-activity`,
  /** GET: service level, speed of answer, abandonment and talk time over a window, from the call journal (extension). */
  serviceLevels: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/service-levels`,
  /** GET: the callers who gave up over a window, and whether they were called back (extension). */
  missedCalls: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/missed-calls`,
  /** GET: each interval of each queue: service level with the parameters then in force, staffing against need (extension). */
  intervalReport: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/reports/intervals`,
  /** GET: how each agent spent the range, state by state, and their calls (extension). */
  agentReport: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/reports/agents`,
  /** GET: every call of a range as CSV or NDJSON, streamed; HEAD: how many (extension). */
  callExport: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/calls/export`,
  subscribers: (s: ProviderScope) => `${applicationPath(s)}/providers/${seg(s.providerID)}/subscribers`,
  /** GET: each subscriber's state (offline, inactive, available, ringing, on-call) and today's figures (extension). */
  agents: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/agents`,
  /** GET: each queue's waiting callers, agents, service level today against its own target, and agents needed now (extension). */
  queues: (s: ProviderScope) => `${applicationPath(s)}/provider/${seg(s.providerID)}/queues`,
  /** PUT: fault injection for simulated providers that enable it. */
  simulatorFailure: (s: ProviderScope) => `${applicationPath(s)}/providers/${seg(s.providerID)}/simulator/failure`,
  /** PUT: how the next placed call of a simulated provider goes. */
  simulatorNextPlacedCall: (s: ProviderScope) => `${applicationPath(s)}/providers/${seg(s.providerID)}/simulator/next-placed-call`,
  /** GET: Server-Sent Events of the application's providers named in `?providers=` (extension). */
  callStream: (s: Omit<ProviderScope, 'providerID'>) => `${applicationPath(s)}/calls/stream`,
  /** POST: updates a provider pushes (its status callbacks); signed by the provider, no bearer token (extension). */
  webhook: (providerType: string, s: ProviderScope) =>
    `/v1/webhooks/${seg(providerType)}/${seg(s.accountID)}/${seg(s.applicationID)}/${seg(s.providerID)}`,
  me: () => '/v1/me',
  openapi: () => '/v1/openapi.json',
  health: () => '/healthz',
  ready: () => '/readyz',
  metrics: () => '/metrics',
};

const PARAMS = { accountID: ':accountID', applicationID: ':applicationID', providerID: ':providerID' };
const pattern = (build: (s: ProviderScope) => string) => build(PARAMS).replaceAll('%3A', ':');

/** Fastify route patterns built from the same builders, so the two can never drift apart. */
export const routePatterns = {
  listCalls: pattern(paths.listCalls),
  makeCall: pattern(paths.makeCall),
  call: `${pattern(paths.makeCall)}/:callID`,
  softphoneCredentials: pattern(paths.softphoneCredentials),
  listen: `${pattern(paths.makeCall)}/:callID/listen`,
  listener: `${pattern(paths.makeCall)}/:callID/listen/:listenID`,
  concurrency: pattern(paths.concurrency),
  subscriberActivity: pattern(paths.subscriberActivity),
  serviceLevels: pattern(paths.serviceLevels),
  missedCalls: pattern(paths.missedCalls),
  intervalReport: pattern(paths.intervalReport),
  agentReport: pattern(paths.agentReport),
  callExport: pattern(paths.callExport),
  subscribers: pattern(paths.subscribers),
  agents: pattern(paths.agents),
  queues: pattern(paths.queues),
  simulatorFailure: pattern(paths.simulatorFailure),
  simulatorNextPlacedCall: pattern(paths.simulatorNextPlacedCall),
  callStream: pattern(paths.callStream),
  webhook: pattern((s) => paths.webhook(':providerType', s)),
};

/** Response header carrying the age, in milliseconds, of the provider snapshot a list was served from. */
export const SNAPSHOT_AGE_HEADER = 'callboard-snapshot-age';
