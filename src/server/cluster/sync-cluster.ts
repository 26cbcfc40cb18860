/**
 * The instances of a cluster share each provider's sync through PostgreSQL. Leadership is a
 * session advisory lock per provider, held on one dedicated connection (never a pooled one: a
 * pool may recycle it and drop the lock, and a session lock taken twice stacks). The same
 * connection listens for the leaders' notices. When it drops, every lead it held ends at once;
 * the feed's term fences any write still in flight, so two leaders never both commit.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { ProviderScope } from '../../contract/paths.js';
import type { FeedHealth } from '../calls/provider-health.js';
import { NotLeading, type Delivered, type FeedCommit, type SharedSync, type SyncRoles } from '../calls/shared-sync.js';
import type { Clock } from '../clock.js';
import { scopeKey, type FeedNotice, type SyncFeeds } from '../history/sync-feeds.js';
import type { CallUpdate } from '../providers/phone-system.js';

export interface SyncClusterOptions {
  url: string;
  /** The schema the service is confined to, if any: its cluster is apart from other schemas'. */
  schema?: string;
  /** Names this instance in the feed and the logs. */
  instance: string;
  feeds: SyncFeeds;
  clock: Clock;
  log: FastifyBaseLogger;
  /** How often a follower tries to take a lead no one holds: a quarter of the shortest `staleAfterMs`, say. */
  electEveryMs: number;
}

/** A query on the dedicated connection that takes longer than this means the connection is gone. */
const QUERY_TIMEOUT_MS = 3000;
const HEARTBEAT_MS = 1000;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 4000;

/**
 * The advisory lock of a provider's sync, within a schema: the leader of a cluster holds it, and so
 * does an instance that syncs alone, so two instances never both sync one provider.
 */
export const providerLockKey = (schema: string | undefined, scope: ProviderScope): string =>
  createHash('sha256').update(`callboard:${schema ?? ''}:${scopeKey(scope)}`).digest().readBigInt64BE(0).toString();

/** The `application_name` of an instance's dedicated connection, as PostgreSQL's pg_stat_activity shows it. */
export const leadershipConnectionName = (instance: string) => `callboard leadership ${instance}`.slice(0, 63);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

class Seat implements SharedSync {
  roles: SyncRoles | undefined;
  leading = false;
  term = 0;
  readonly key: string;

  constructor(
    private readonly cluster: SyncCluster,
    private readonly feeds: SyncFeeds,
    readonly scope: ProviderScope,
    /** The advisory lock's key: a 64-bit hash of the provider, within the schema. */
    readonly lockKey: string,
  ) {
    this.key = scopeKey(scope);
  }

  join(roles: SyncRoles): () => Promise<void> {
    this.roles = roles;
    this.cluster.electSoon();
    return async () => {
      this.roles = undefined;
      await this.cluster.release(this);
    };
  }

  read(from: { epoch: string; seq: number } | undefined) {
    return this.feeds.read(this.scope, from);
  }

  async commit(step: FeedCommit): Promise<void> {
    this.checkLead();
    await this.feeds.commit(this.scope, this.term, step);
  }

  async commitHealth(health: FeedHealth): Promise<void> {
    this.checkLead();
    await this.feeds.commitHealth(this.scope, this.term, health);
  }

  resign(): Promise<void> {
    return this.cluster.release(this);
  }

  requestSync(): void {
    this.feeds.requestSync(this.scope).catch(() => undefined);
  }

  deliver(updates: readonly CallUpdate[]): Promise<void> {
    return this.feeds.deliver(this.scope, updates, this.cluster.now());
  }

  takeDelivered(limit: number): Promise<Delivered | undefined> {
    this.checkLead();
    return this.feeds.delivered(this.scope, limit);
  }

  /** Before each write: the lock's connection must still be up, or this instance leads no more. */
  private checkLead(): void {
    if (!this.leading || !this.cluster.holds(this)) throw new NotLeading('its connection to the database dropped');
  }
}

export class SyncCluster {
  private client: pg.Client | undefined;
  private readonly seats = new Map<string, Seat>();
  /** Keys of the advisory locks the current session holds. */
  private readonly locked = new Set<string>();
  private closed = false;
  private electing = false;
  private electionTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;

  constructor(private readonly options: SyncClusterOptions) {}

  get channel(): string {
    return this.options.feeds.channel;
  }

  seat(scope: ProviderScope): SharedSync {
    const key = scopeKey(scope);
    const seat = new Seat(this, this.options.feeds, scope, providerLockKey(this.options.schema, scope));
    this.seats.set(key, seat);
    return seat;
  }

  start(): void {
    this.closed = false;
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    this.electionTimer = setInterval(() => void this.elect(), this.options.electEveryMs);
    this.electionTimer.unref();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.electionTimer);
    clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  now(): number {
    return this.options.clock.now();
  }

  holds(seat: Seat): boolean {
    return this.client !== undefined && this.locked.has(seat.key);
  }

  electSoon(): void {
    setImmediate(() => void this.elect());
  }

  /** Lets go of a seat's lead, so another instance takes over without waiting for this one's connection to close. */
  async release(seat: Seat): Promise<void> {
    const client = this.client;
    const held = seat.leading;
    seat.leading = false;
    if (!held || !client || !this.locked.delete(seat.key)) return;
    await client.query('select pg_advisory_unlock($1)', [seat.lockKey]).catch(() => undefined);
  }

  private async connect(): Promise<void> {
    let wait = RECONNECT_MIN_MS;
    let failures = 0;
    while (!this.closed) {
      const client = new pg.Client({
        connectionString: this.options.url,
        // Named, so an operator (or a fault test) can find the connection that holds the leads.
        application_name: leadershipConnectionName(this.options.instance),
        keepAlive: true,
        connectionTimeoutMillis: QUERY_TIMEOUT_MS,
        query_timeout: QUERY_TIMEOUT_MS,
        ...(this.options.schema === undefined ? {} : { options: `-c search_path=${this.options.schema}` }),
      });
      client.on('error', (error) => this.lose(client, error.message));
      client.on('end', () => this.lose(client, 'the connection closed'));
      client.on('notification', (message) => this.hear(message.channel, message.payload));
      try {
        await client.connect();
        await client.query(`listen "${this.channel}"`);
        await client.query(`listen "${this.channel}_soon"`);
        await client.query(`listen "${this.channel}_delivered"`);
      } catch (error) {
        await client.end().catch(() => undefined);
        failures += 1;
        if (failures === 1) this.options.log.warn({ reason: (error as Error).message }, 'cluster: cannot reach the database; retrying');
        await delay(wait);
        wait = Math.min(wait * 2, RECONNECT_MAX_MS);
        continue;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.options.log.info({ instance: this.options.instance, failedAttempts: failures }, 'cluster: connected');
      // Whatever was committed while this instance could not hear it.
      for (const seat of this.seats.values()) seat.roles?.changed();
      void this.elect();
      return;
    }
  }

  /** The dedicated connection failed: every lead it held ends now, and it reconnects. */
  private lose(client: pg.Client, reason: string): void {
    if (this.client !== client) return;
    this.options.log.warn({ instance: this.options.instance, reason }, 'cluster: lost the database connection');
    this.drop();
    client.end().catch(() => undefined);
    if (!this.closed) this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
  }

  private drop(): void {
    this.client = undefined;
    this.locked.clear();
    for (const seat of this.seats.values())
      if (seat.leading) {
        seat.leading = false;
        seat.roles?.follow();
      }
  }

  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await client.query('select 1');
    } catch (error) {
      this.lose(client, `heartbeat failed: ${(error as Error).message}`);
    }
  }

  /** Tries each lead no one holds; a lead taken raises the feed's term before the sync is told. */
  private async elect(): Promise<void> {
    if (this.electing || this.closed) return;
    this.electing = true;
    try {
      for (const seat of this.seats.values()) {
        const client = this.client;
        if (!client) return;
        if (seat.leading || !seat.roles || this.locked.has(seat.key)) continue;
        await this.tryLead(client, seat);
      }
    } finally {
      this.electing = false;
    }
  }

  private async tryLead(client: pg.Client, seat: Seat): Promise<void> {
    let got: boolean;
    try {
      const result = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [seat.lockKey]);
      got = result.rows[0]?.ok === true;
    } catch (error) {
      this.lose(client, (error as Error).message);
      return;
    }
    if (!got) return;
    this.locked.add(seat.key);
    try {
      const { term } = await this.options.feeds.claim(seat.scope, this.options.instance, this.options.clock.now());
      seat.term = term;
    } catch (error) {
      this.options.log.warn({ provider: seat.key, reason: (error as Error).message }, 'cluster: took the lock but could not start a term');
      this.locked.delete(seat.key);
      await client.query('select pg_advisory_unlock($1)', [seat.lockKey]).catch(() => undefined);
      return;
    }
    if (this.client !== client || !seat.roles) return;
    seat.leading = true;
    this.options.log.info({ provider: seat.key, term: seat.term, instance: this.options.instance }, 'cluster: took the lead');
    seat.roles.lead();
  }

  private hear(channel: string, payload: string | undefined): void {
    if (payload === undefined) return;
    if (channel === `${this.channel}_soon` || channel === `${this.channel}_delivered`) {
      const seat = this.seats.get(payload);
      if (!seat?.leading) return;
      if (channel.endsWith('_soon')) seat.roles?.pollSoon();
      else seat.roles?.delivered();
      return;
    }
    if (channel !== this.channel) return;
    let notice: FeedNotice;
    try {
      notice = JSON.parse(payload) as FeedNotice;
    } catch {
      return;
    }
    const seat = this.seats.get(notice.key);
    if (seat && !seat.leading) seat.roles?.changed();
  }
}
