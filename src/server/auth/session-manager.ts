/**
 * People's sessions: made at sign-in with a fresh random ID (never one the browser brought), held
 * in the journal's database by the SHA-256 of that ID, and turned into a request's principal.
 * A session read here is trusted for at most `RECHECK_MS`, so a sign-out or revocation at any
 * instance of a cluster is seen by every other within a second; its idle time is written back at
 * most once per `TOUCH_EVERY_MS`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionResponse } from '../../contract/session.js';
import type { Clock } from '../clock.js';
import type { SessionsTable, StoredSession } from '../history/sessions-table.js';
import type { AuthConfig } from '../config/auth-config.js';
import { permissionsOf, type Grants } from './grants.js';
import { providerKey, sha256, type Principal } from './token-index.js';

/** How long a session read from the database is trusted before it is read again. */
export const RECHECK_MS = 500;
/** The longest a session's last use may go unwritten (less when the idle timeout is short). */
const TOUCH_EVERY_MS = 60_000;
/** Sessions kept in memory at most; past it the oldest read is let go (read again when next used). */
const MAX_CACHED = 10_000;
/** Ended and expired sessions are kept this long (for the audit), then deleted. */
const KEEP_ENDED_MS = 30 * 86_400_000;

export const sessionDigest = (sessionID: string): string => sha256(sessionID).toString('hex');

interface Cached {
  session: StoredSession;
  principal: Principal;
  readAt: number;
}

export interface NewPerson {
  subject: string;
  email: string;
  name: string;
  idToken: string | undefined;
}

export class SessionManager {
  readonly idleMs: number;
  readonly lifetimeMs: number;
  private readonly cache = new Map<string, Cached>();
  private readonly touchEveryMs: number;
  private lastKeptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly table: SessionsTable,
    private readonly accountID: string,
    config: AuthConfig,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.idleMs = config.sessions.idleMinutes * 60_000;
    this.lifetimeMs = config.sessions.lifetimeHours * 3_600_000;
    this.touchEveryMs = Math.min(TOUCH_EVERY_MS, Math.floor(this.idleMs / 10));
  }

  /** A new session; its ID goes to the browser (the cookie) and nowhere else. */
  async create(person: NewPerson, grants: Grants): Promise<{ sessionID: string; expiresAt: number }> {
    const sessionID = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = now + this.lifetimeMs;
    await this.table.create({
      idDigest: sessionDigest(sessionID),
      accountID: this.accountID,
      subject: person.subject,
      email: person.email,
      name: person.name,
      grants: JSON.stringify(grants),
      csrfToken: randomBytes(24).toString('base64url'),
      idToken: person.idToken,
      now,
      expiresAt,
    });
    return { sessionID, expiresAt };
  }

  private isOpen(session: StoredSession, now: number): boolean {
    return session.ended_at === null && session.expires_at > now && session.last_seen_at + this.idleMs > now;
  }

  /** The principal of a session's cookie value; 'ended' for a session that was and is no more, undefined for none at all. */
  async principalOf(sessionID: string): Promise<Principal | 'ended' | undefined> {
    const digest = sessionDigest(sessionID);
    const now = this.clock.now();
    let cached = this.cache.get(digest);
    if (!cached || now - cached.readAt >= RECHECK_MS) {
      const session = await this.table.find(digest);
      if (!session) {
        this.cache.delete(digest);
        return undefined;
      }
      cached = { session, principal: cached?.principal ?? principalOfSession(session), readAt: now };
      this.cache.delete(digest);
      this.cache.set(digest, cached);
      if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    }
    const { session } = cached;
    if (!this.isOpen(session, now)) return 'ended';
    if (now - session.last_seen_at >= this.touchEveryMs) {
      session.last_seen_at = now;
      this.table
        .touch(digest, now)
        .catch((error: unknown) => this.log.warn({ err: error }, "a session's last use was not recorded"));
    }
    return cached.principal;
  }

  /** What `GET /auth/session` tells of an open session. */
  describe(principal: Principal): SessionResponse {
    const person = principal.person;
    if (!person) return { signedIn: false };
    const session = this.cache.get(person.sessionID)?.session;
    const expiresAt = session?.expires_at ?? this.clock.now();
    return {
      signedIn: true,
      person: { subject: person.subject, email: person.email, name: person.name },
      roles: [...person.roles],
      csrfToken: person.csrfToken,
      expiresAt: new Date(expiresAt).toISOString(),
      idleTimeoutSeconds: Math.round(this.idleMs / 1000),
    };
  }

  /** The ID token given back to the identity provider at sign-out. */
  idTokenOf(principal: Principal): string | undefined {
    const session = principal.person && this.cache.get(principal.person.sessionID)?.session;
    return session?.id_token ?? undefined;
  }

  /** Ends a session (by its handle, the digest); false when none was open by it. */
  async end(sessionID: string, why: 'signed-out' | 'revoked'): Promise<boolean> {
    this.cache.delete(sessionID);
    return this.table.end(sessionID, why, this.clock.now());
  }

  /** Ends the session a browser brought, if any: a sign-in never continues one (no fixation). */
  async endPresented(cookieValue: string | undefined): Promise<void> {
    if (cookieValue) await this.end(sessionDigest(cookieValue), 'signed-out');
  }

  async open(): Promise<StoredSession[]> {
    const now = this.clock.now();
    return this.table.open(this.accountID, now, now - this.idleMs);
  }

  /** Of these sessions (by handle), the ones still open. */
  async stillOpen(sessionIDs: readonly string[]): Promise<Set<string>> {
    const now = this.clock.now();
    return this.table.stillOpen(sessionIDs, now, now - this.idleMs);
  }

  /** Counts sessions as used now (those a stream holds), at most once per `touchEveryMs`. */
  async keepUsed(sessionIDs: readonly string[]): Promise<void> {
    const now = this.clock.now();
    if (sessionIDs.length === 0 || now - this.lastKeptAt < this.touchEveryMs) return;
    this.lastKeptAt = now;
    await this.table.touchMany(sessionIDs, now);
  }

  async prune(): Promise<void> {
    const now = this.clock.now();
    this.cache.clear();
    await this.table.prune(now - KEEP_ENDED_MS, now - SIGN_IN_WITHIN_MS);
  }
}

/** A sign-in must come back from the identity provider within this. */
export const SIGN_IN_WITHIN_MS = 10 * 60_000;


/** A session's principal, from the grants fixed at its sign-in. */
export const principalOfSession = (session: StoredSession): Principal => {
  const grants = JSON.parse(session.grants) as Grants;
  const admin = grants.roles.includes('admin');
  const subscribers = new Map<string, Set<string>>();
  for (const binding of grants.subscribers) {
    const key = providerKey(binding);
    subscribers.set(key, (subscribers.get(key) ?? new Set()).add(binding.subscriberID));
  }
  return {
    accountID: session.account_id,
    tokenName: `person:${session.subject}`,
    applications: '*',
    permissions: permissionsOf(grants.roles),
    subscribers: admin ? '*' : new Set(grants.subscribers.map((binding) => binding.subscriberID)),
    ...(grants.queues === '*' ? {} : { view: { queues: new Set(grants.queues), subscribers } }),
    person: {
      subject: session.subject,
      email: session.email,
      name: session.name,
      roles: grants.roles,
      subscribers,
      ...(grants.controlQueues === '*' ? {} : { controlQueues: new Set(grants.controlQueues) }),
      sessionID: session.id_digest,
      csrfToken: session.csrf_token,
    },
  };
};
