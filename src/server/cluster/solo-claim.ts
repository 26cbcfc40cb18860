/**
 * An instance without `"cluster"` on a PostgreSQL journal syncs its providers alone, and says so
 * in the database: it holds, on one dedicated connection, the same advisory lock per provider that
 * a cluster's leader holds. A second instance on the same database and schema, with or without
 * `"cluster"`, cannot take them: it refuses to start (a solo one) or never leads (a clustered one),
 * instead of polling the provider a second time and writing every call to the journal twice.
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { ProviderScope } from '../../contract/paths.js';
import { scopeKey } from '../history/sync-feeds.js';
import { providerLockKey } from './sync-cluster.js';

export interface SoloClaimOptions {
  url: string;
  schema?: string;
  instance: string;
  scopes: readonly ProviderScope[];
  log: FastifyBaseLogger;
}

/** Another instance syncs these providers on this database already. */
export class SoloRefused extends Error {
  constructor(readonly scopes: readonly ProviderScope[]) {
    const names = scopes.map((scope) => `"${scopeKey(scope)}"`).join(', ');
    super(
      `another instance already syncs provider${scopes.length === 1 ? '' : 's'} ${names} on this database. Two instances ` +
        'without "cluster" would each poll the providers and journal every call twice. To run several instances, give every ' +
        'one "cluster": { "instances": N } in its config (they then share the work); to run this one alone, stop the other first.',
    );
    this.name = 'SoloRefused';
  }
}

const RECLAIM_EVERY_MS = 2000;

export interface SoloClaim {
  release(): Promise<void>;
}

const lockAll = async (client: pg.Client, keys: readonly { scope: ProviderScope; key: string }[]): Promise<ProviderScope[]> => {
  const refused: ProviderScope[] = [];
  for (const { scope, key } of keys) {
    const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [key]);
    if (!rows[0]?.ok) refused.push(scope);
  }
  return refused;
};

/**
 * Takes every provider's lock, or none: throws SoloRefused naming the providers another instance
 * holds. Should the connection drop later, the locks go with it; they are taken again as soon as
 * it is back, and an instance that took them meanwhile is reported as the error it is.
 */
export const claimSolo = async (options: SoloClaimOptions): Promise<SoloClaim> => {
  const keys = options.scopes.map((scope) => ({ scope, key: providerLockKey(options.schema, scope) }));
  const connect = async () => {
    const client = new pg.Client({ connectionString: options.url, application_name: `callboard solo ${options.instance}`.slice(0, 63) });
    await client.connect();
    return client;
  };
  let client = await connect();
  const refused = await lockAll(client, keys);
  if (refused.length > 0) {
    await client.end().catch(() => undefined);
    throw new SoloRefused(refused);
  }
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  const watch = (current: pg.Client) => {
    current.on('error', () => undefined);
    current.on('end', () => {
      if (released) return;
      options.log.error({ instance: options.instance }, 'lost the connection that holds this instance\'s providers: taking them again');
      const reclaim = async () => {
        try {
          const next = await connect();
          const taken = await lockAll(next, keys);
          client = next;
          watch(next);
          if (taken.length > 0) options.log.error({ reason: new SoloRefused(taken).message }, 'another instance took providers this one syncs');
        } catch {
          timer = setTimeout(() => void reclaim(), RECLAIM_EVERY_MS);
          timer.unref();
        }
      };
      void reclaim();
    });
  };
  watch(client);
  return {
    release: async () => {
      released = true;
      clearTimeout(timer);
      await client.end().catch(() => undefined);
    },
  };
};
