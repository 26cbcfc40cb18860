/**
 * The running providers: each configured provider's phone system wired to its sync loop and its
 * journal, looked up by scope. Requests to a phone system go through here, under the provider's
 * deadline and with its name on any failure.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderScope } from '../../contract/paths.js';
import type { Subscriber } from '../../contract/subscriber.js';
import { AgentBoard } from '../agents/agent-board.js';
import { QueueBoard } from '../queues/queue-board.js';
import { QueueDirectory } from '../queues/queue-directory.js';
import { ProviderSync } from '../calls/provider-sync.js';
import type { SharedSync } from '../calls/shared-sync.js';
import type { Clock } from '../clock.js';
import type { AccountConfig, ProviderConfig, ServiceConfig } from '../config/config-schema.js';
import { AgentRollupRoller } from '../history/agent-rollup-roller.js';
import type { HistoryStore } from '../history/history-store.js';
import { emptySums } from '../history/service-level-figures.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { ProviderFailure, WebhookRefused, type CallUpdate, type PhoneSystem, type PlaceCallRequest, type ProviderCall, type WebhookRequest } from '../providers/phone-system.js';

export type PhoneSystemFactory = (config: ProviderConfig, scope: ProviderScope) => PhoneSystem;

const keyOf = (s: ProviderScope) => `${s.accountID}/${s.applicationID}/${s.providerID}`;

export class ProviderRuntime {
  constructor(
    readonly scope: ProviderScope,
    readonly account: AccountConfig,
    readonly applicationName: string,
    readonly config: ProviderConfig,
    readonly phoneSystem: PhoneSystem,
    readonly sync: ProviderSync,
    private readonly log: FastifyBaseLogger,
    /** Its agents' states, from its subscribers and calls. */
    readonly agents: AgentBoard,
    /** Its configured queues, and their figures live and of the day. */
    readonly queues: QueueBoard,
  ) {}

  get queueDirectory(): QueueDirectory {
    return this.queues.directory;
  }

  /** The journal gained past calls: the queues' figures of the day are read from it again. */
  pastWritten(): void {
    this.queues.reload();
  }

  /** Alone, or as the cluster's leader of this provider: the one instance that writes its journal (its past, its agents' states, their rollups, its queues' parameters) and sends its reports. */
  writesJournal(): boolean {
    return this.sync.role !== 'follower';
  }

  /**
   * Places the call; what the provider told of the new call is taken in as pushed updates, and a
   * list is asked for soon, so the call shows at once rather than at the next tick.
   */
  async placeCall(request: PlaceCallRequest): Promise<void> {
    const updates = await this.request((signal) => this.phoneSystem.placeCall(request, signal));
    // The call is placed whatever becomes of this: the next list shows it all the same.
    if (updates) await this.sync.push(updates).catch((error: unknown) => this.logUnapplied(error));
    this.sync.syncSoon();
  }

  /** Whether its phone system can end a live call. */
  get canEndCalls(): boolean {
    return this.phoneSystem.endCall !== undefined;
  }

  /**
   * Ends a live call for `actor` (a token's name): the provider is asked to, and what it told of
   * the call is taken in together with who ended it, so every view shows it ended by a supervisor.
   * Rejects as the provider did (CallNotEndable, ProviderFailure).
   */
  async endCall(call: ProviderCall, actor: string, at: number): Promise<void> {
    const endCall = this.phoneSystem.endCall?.bind(this.phoneSystem);
    if (!endCall) throw new Error(`provider "${this.config.id}" cannot end calls`);
    const told = await this.request((signal) => endCall(call, signal));
    const updates: CallUpdate[] = [...(told ?? []), { callID: call.callID, at, fields: { endedBy: actor } }];
    await this.sync.push(updates).catch((error: unknown) => this.logUnapplied(error));
    this.sync.syncSoon();
  }

  /**
   * Reads a request to the provider's webhook: the phone system checks it is the provider's own and
   * reads the updates it carries; throws WebhookRefused when it is not.
   */
  readWebhook(request: WebhookRequest): CallUpdate[] {
    const { webhook } = this.phoneSystem;
    if (!webhook) throw new WebhookRefused('malformed', `provider "${this.config.id}" takes no webhook`);
    return webhook.receive(request);
  }

  /** Takes in updates the provider pushed: resolves once applied, or stored for the cluster's leader. */
  takeUpdates(updates: readonly CallUpdate[]): Promise<void> {
    return this.sync.push(updates);
  }

  private logUnapplied(error: unknown): void {
    this.log.error({ provider: this.config.id, reason: (error as Error).message }, 'what the provider told of a call it placed or ended was not taken in');
  }

  listSubscribers(): Promise<Subscriber[]> {
    return this.request((signal) => this.phoneSystem.listSubscribers(signal));
  }

  /** A request of its phone system beyond the interface's musts (a listener, say), under the provider's deadline and name. */
  withDeadline<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.request(call);
  }

  private async request<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await callWithDeadline(this.config.requestTimeoutMs, call);
    } catch (error) {
      if (error instanceof ProviderFailure && error.providerName === undefined)
        throw new ProviderFailure(error.kind, error.message, this.config.name, error.retryAfterMs);
      throw error;
    }
  }
}

export class ProviderRuntimes {
  private readonly byKey = new Map<string, ProviderRuntime>();
  /** Each provider's agents' rollups, kept by the instance that writes its journal. */
  private readonly rollers: AgentRollupRoller[] = [];

  constructor(
    config: ServiceConfig,
    createPhoneSystem: PhoneSystemFactory,
    history: HistoryStore,
    clock: Clock,
    log: FastifyBaseLogger,
    /** In a cluster, each provider's seat in its shared sync. */
    seat?: (scope: ProviderScope) => SharedSync,
  ) {
    for (const account of config.accounts)
      for (const application of account.applications)
        for (const provider of application.providers) {
          const scope = { accountID: account.id, applicationID: application.id, providerID: provider.id };
          const phoneSystem = createPhoneSystem(provider, scope);
          const sync = new ProviderSync(phoneSystem, {
            providerID: provider.id,
            providerName: provider.name,
            intervalMs: provider.syncIntervalMs,
            ...(provider.minListIntervalMs === undefined ? {} : { minListIntervalMs: provider.minListIntervalMs }),
            requestTimeoutMs: provider.requestTimeoutMs,
            staleAfterMs: provider.staleAfterMs,
            keepEndedMs: provider.keepEndedMs,
            clock,
            log,
            journal: history.journal(scope),
            ...(seat ? { shared: seat(scope) } : {}),
          });
          const agents = new AgentBoard({
            providerID: provider.id,
            providerName: provider.name,
            clock,
            intervalMs: provider.presenceIntervalMs,
            staleAfterMs: provider.staleAfterMs,
            timeZone: config.timeZone,
            listSubscribers: () => runtime.listSubscribers(),
            calls: () => sync.live.positioned()?.snapshot.calls,
            watchCalls: (onChange) => sync.live.subscribe((event) => event.type !== 'status' && onChange()),
            countDay: (from, to, now) => history.subscriberActivity(scope, from, to, now),
            log,
            stateJournal: { writes: () => runtime.writesJournal(), write: (changes) => history.recordAgentStates(scope, changes) },
          });
          const queues = new QueueBoard({
            providerID: provider.id,
            clock,
            timeZone: config.timeZone,
            queues: new QueueDirectory(provider.queues),
            calls: () => sync.live.positioned()?.snapshot.calls,
            watchCalls: (onChange) => sync.live.subscribe((event) => event.type !== 'status' && onChange()),
            agents: () => {
              const read = agents.read();
              return read.ok ? read.board.agents : undefined;
            },
            daySums: async (request) => (await history.serviceLevels(scope, request)).buckets[0] ?? emptySums(),
            callsSince: async (since) => (await history.recall(scope, since)).calls,
            watchAgents: (onChange) => agents.subscribe(() => onChange()),
            log,
          });
          const runtime: ProviderRuntime = new ProviderRuntime(scope, account, application.name, provider, phoneSystem, sync, log, agents, queues);
          this.byKey.set(keyOf(scope), runtime);
          this.rollers.push(
            new AgentRollupRoller({
              history,
              scope,
              timeZone: config.timeZone,
              clock,
              retentionDays: config.history.retentionDays,
              writes: () => runtime.writesJournal(),
              log,
            }),
          );
        }
  }

  get(scope: ProviderScope): ProviderRuntime | undefined {
    return this.byKey.get(keyOf(scope));
  }

  all(): ProviderRuntime[] {
    return [...this.byKey.values()];
  }

  startSync(): void {
    for (const runtime of this.byKey.values()) {
      runtime.sync.start();
      runtime.agents.start();
      runtime.queues.start();
    }
    for (const roller of this.rollers) roller.start();
  }

  /** One poll of every provider, for tests and start-up. */
  async syncAll(): Promise<void> {
    await Promise.all(this.all().map((runtime) => runtime.sync.syncOnce()));
    await Promise.all(this.all().map((runtime) => Promise.all([runtime.agents.listSubscribers(), runtime.agents.countFigures(true)])));
  }

  async close(): Promise<void> {
    await Promise.all(this.rollers.map((roller) => roller.stop()));
    for (const runtime of this.all()) runtime.queues.stop();
    await Promise.all(this.all().map((runtime) => runtime.agents.close()));
    await Promise.all(this.all().map((runtime) => runtime.sync.stop()));
    await Promise.all(this.all().map((runtime) => runtime.phoneSystem.close()));
  }
}
