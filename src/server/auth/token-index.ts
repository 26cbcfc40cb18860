/** Bearer tokens from the config, held as SHA-256 digests and matched in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Permission } from '../../contract/me.js';
import type { ServiceConfig } from '../config/config-schema.js';

export interface Principal {
  accountID: string;
  /** The token's label from the config (safe to log). */
  tokenName: string;
  applications: '*' | ReadonlySet<string>;
  permissions: ReadonlySet<Permission>;
  /** The subscribers this token places calls as: an agent's own, or "*" for any (a supervisor's). */
  subscribers: '*' | ReadonlySet<string>;
}

export interface TokenEntry {
  digest: Buffer;
  principal: Principal;
}

export const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export class TokenIndex {
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
          permissions: new Set(token.permissions),
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
}

export const canSeeApplication = (principal: Principal, accountID: string, applicationID: string): boolean =>
  principal.accountID === accountID && (principal.applications === '*' || principal.applications.has(applicationID));
