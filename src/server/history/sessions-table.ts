/**
 * People's sessions and sign-ins under way, the same SQL on both dialects, so every instance of a
 * cluster finds a session made at another and sees one ended there. A session is found by the
 * SHA-256 of its cookie; a sign-in request is taken once, by its state, in one conditional delete.
 */
import type { Selectable } from 'kysely';
import type { HistoryDb, SessionsTable as SessionRow } from './history-tables.js';

export type StoredSession = Selectable<SessionRow>;

export interface NewSession {
  idDigest: string;
  accountID: string;
  subject: string;
  email: string;
  name: string;
  grants: string;
  csrfToken: string;
  idToken: string | undefined;
  now: number;
  expiresAt: number;
}

export interface SignInRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string | undefined;
  createdAt: number;
}

export class SessionsTable {
  constructor(private readonly db: HistoryDb) {}

  async create(session: NewSession): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        id_digest: session.idDigest,
        account_id: session.accountID,
        subject: session.subject,
        email: session.email,
        name: session.name,
        grants: session.grants,
        csrf_token: session.csrfToken,
        id_token: session.idToken ?? null,
        created_at: session.now,
        last_seen_at: session.now,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  async find(idDigest: string): Promise<StoredSession | undefined> {
    const row = await this.db.selectFrom('sessions').selectAll().where('id_digest', '=', idDigest).executeTakeFirst();
    return (
      row && {
        ...row,
        created_at: Number(row.created_at),
        last_seen_at: Number(row.last_seen_at),
        expires_at: Number(row.expires_at),
        ended_at: row.ended_at === null ? null : Number(row.ended_at),
      }
    );
  }

  /** Marks the session used at `at` (its idle time counts from there). */
  async touch(idDigest: string, at: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('id_digest', '=', idDigest)
      .where('last_seen_at', '<', at)
      .execute();
  }

  /** Marks sessions used at `at`: those a stream holds open, say. */
  async touchMany(idDigests: readonly string[], at: number): Promise<void> {
    if (idDigests.length === 0) return;
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('id_digest', 'in', idDigests)
      .where('last_seen_at', '<', at)
      .execute();
  }

  /** Ends a session; false when there was none open by that digest. */
  async end(idDigest: string, why: 'signed-out' | 'revoked', at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ ended_at: at, ended_why: why })
      .where('id_digest', '=', idDigest)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The open sessions of an account, newest first: not ended, not past their lifetime, used since `idleSince`. */
  async open(accountID: string, now: number, idleSince: number): Promise<StoredSession[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('account_id', '=', accountID)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>', idleSince)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((row) => ({
      ...row,
      created_at: Number(row.created_at),
      last_seen_at: Number(row.last_seen_at),
      expires_at: Number(row.expires_at),
      ended_at: null,
    }));
  }

  /** Of these sessions, the ones still open: one query for every stream an instance holds. */
  async stillOpen(idDigests: readonly string[], now: number, idleSince: number): Promise<Set<string>> {
    if (idDigests.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sessions')
      .select('id_digest')
      .where('id_digest', 'in', idDigests)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>', idleSince)
      .execute();
    return new Set(rows.map((row) => row.id_digest));
  }

  /** Forgets sessions ended or expired before `before`, and sign-ins started before `requestsBefore`. */
  async prune(before: number, requestsBefore: number): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('ended_at', '<', before), eb('expires_at', '<', before)]))
      .execute();
    await this.db.deleteFrom('sign_in_requests').where('created_at', '<', requestsBefore).execute();
  }

  async saveSignInRequest(request: SignInRequest): Promise<void> {
    await this.db
      .insertInto('sign_in_requests')
      .values({
        state: request.state,
        nonce: request.nonce,
        code_verifier: request.codeVerifier,
        return_to: request.returnTo ?? null,
        created_at: request.createdAt,
      })
      .execute();
  }

  /** Takes the sign-in started with `state`, once: a second callback with the same state finds nothing. */
  async takeSignInRequest(state: string): Promise<SignInRequest | undefined> {
    const row = await this.db.deleteFrom('sign_in_requests').where('state', '=', state).returningAll().executeTakeFirst();
    return (
      row && {
        state: row.state,
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
        returnTo: row.return_to ?? undefined,
        createdAt: Number(row.created_at),
      }
    );
  }
}
