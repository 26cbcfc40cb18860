/** Bearer tokens from the config, held as SHA-256 digests and matched in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Permission } from '../../contract/me.js';
import type { ProviderScope } from '../../contract/paths.js';
import type { Person, Role } from '../../contract/session.js';
import type { ServiceConfig } from '../config/config-schema.js';

/** A person signed in with the identity provider, behind a request. */
export interface SignedInPerson extends Person {
  roles: readonly Role[];
  /** An agent's own subscribers per provider (`providerKey`): whom they place calls as there. */
  subscribers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The queues whose calls they may end; absent, any call they see (an admin, a supervisor of every queue). */
  controlQueues?: ReadonlySet<string>;
  /** The session's handle (the digest of its cookie), to end it at sign-out. */
  sessionID: string;
  csrfToken: string;
}

/**
 * The calls a principal sees of the providers it may see, when not all of them: those of its
 * queues, and an agent's own (their subscribers' calls, per provider as `providerKey` names it).
 */
export interface CallView {
  queues: ReadonlySet<string>;
  subscribers: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The key of a provider within an account in `CallView.subscribers`. */
export const providerKey = (scope: Pick<ProviderScope, 'applicationID' | 'providerID'>): string => `${scope.applicationID}/${scope.providerID}`;

export interface Principal {
  accountID: string;
  /** The token's label from the config, or "person:<subject>" for a signed-in person (safe to log). */
  tokenName: string;
  applications: '*' | ReadonlySet<string>;
  permissions: ReadonlySet<Permission>;
  /** The subscribers this token places calls as: an agent's own, or "*" for any (a supervisor's). */
  subscribers: '*' | ReadonlySet<string>;
  /** Only these calls; absent, every call of the providers it may see (a token, an admin). */
  view?: CallView;
  /** Present when a person signed in, rather than a token, is behind the request. */
  person?: SignedInPerson;
}

export interface TokenEntry {
  digest: Buffer;
  principal: Principal;
}

export const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether two tokens are the same, in a time that depends on the length of `presented` alone:
 * every character is compared, whatever differed first, as `timingSafeEqual` compares digests.
 */
export const sameToken = (known: string, presented: string): boolean => {
  let difference = known.length ^ presented.length;
  // Past the end of `known`, charCodeAt gives NaN, which the bitwise operator reads as 0.
  for (let i = 0; i < presented.length; i += 1) difference |= known.charCodeAt(i) ^ presented.charCodeAt(i);
  return difference === 0;
};

/** The principal last resolved on one connection, and the exact token it was resolved from. */
interface ResolvedOnConnection {
  token: string;
  principal: Principal;
}

export class TokenIndex {
  /**
   * Per connection (its socket, held weakly: gone with the connection), the last token found and
   * its principal, so a poller's keep-alive connection hashes its token once rather than on every
   * request. It is safe because it answers only what `find` would: the entry is reused only for
   * the very same token, compared in constant time (a proxy that carries several clients' requests
   * on one connection learns nothing from the timing), and any other token on the connection is
   * looked up in full. It belongs to this index, whose entries never change: a configuration
   * reloaded, or a token revoked, makes a new index, whose connections start with nothing remembered.
   */
  private readonly byConnection = new WeakMap<object, ResolvedOnConnection>();

  constructor(private readonly entries: readonly TokenEntry[]) {}

  static fromConfig(config: ServiceConfig): TokenIndex {
    return new TokenIndex(
      config.accounts.flatMap((account) =>
      account.tokens.map((token) => ({
        digest: token.sha256 ? Buffer.from(token.sha256, 'hex') : sha256(token.token ?? ''),
        principal: {
          accountID: account.id,
          tokenName: token.name,
          applications: token.applications === '*' ? '*' : new Set(token.applications),
          // A token that reads calls may take them out in bulk, as it always could.
          permissions: new Set([...token.permissions, ...(token.permissions.includes('calls:read') ? (['calls:export'] as const) : [])]),
          subscribers: token.subscriberIDs === undefined ? '*' : new Set(token.subscriberIDs),
        },
      })),
      ),
    );
  }

  /**
   * Every entry is compared, whatever matched, so the time taken says nothing about which
   * digest (if any) was close.
   */
  find(token: string): Principal | undefined {
    const digest = sha256(token);
    let found: Principal | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest) && found === undefined) found = entry.principal;
    }
    return found;
  }

  /** `find`, remembered for `connection` (see `byConnection`). */
  findOn(connection: object, token: string): Principal | undefined {
    const resolved = this.byConnection.get(connection);
    if (resolved !== undefined && sameToken(resolved.token, token)) return resolved.principal;
    const principal = this.find(token);
    if (principal) this.byConnection.set(connection, { token, principal });
    return principal;
  }
}

export const canSeeApplication = (principal: Principal, accountID: string, applicationID: string): boolean =>
  principal.accountID === accountID && (principal.applications === '*' || principal.applications.has(applicationID));

/** Whether a principal sees any call of a provider: every one, one of its queues', or an agent's own there. */
export const canSeeProvider = (principal: Principal, scope: ProviderScope, queueIDs: () => readonly string[]): boolean => {
  if (!canSeeApplication(principal, scope.accountID, scope.applicationID)) return false;
  const view = principal.view;
  // The provider's queues are asked for only when the principal sees some calls: never on a token's request.
  return view === undefined || view.subscribers.has(providerKey(scope)) || queueIDs().some((id) => view.queues.has(id));
};
