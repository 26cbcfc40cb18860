/**
 * One provider type, whole, in one object beside its adapter: the `type` name the config gives,
 * the schema of its `settings`, its own defaults of the fields every provider has, and how its
 * phone system is built. provider-registry.ts lists them; the config format and the runtime read
 * every type from there.
 */
import type { z } from 'zod';
import type { ProviderScope } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import type { QueueConfig } from '../queues/queue-config.js';
import type { PhoneSystem } from './phone-system.js';

/** Where a phone system writes what an operator should read, already naming its provider. */
export interface ProviderLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/** The fields every provider's config has, whose default a type may set to suit it (its rate limit, say). */
export type ProviderDefaults = Partial<
  Record<'syncIntervalMs' | 'minListIntervalMs' | 'requestTimeoutMs' | 'staleAfterMs' | 'keepEndedMs' | 'presenceIntervalMs', number>
>;

/** What the service gives a phone system it builds, besides the provider's settings. */
export interface ProviderContext {
  /** The provider's fields common to every type, as configured (defaults filled in). */
  readonly provider: { readonly id: string; readonly requestTimeoutMs: number; readonly keepEndedMs: number; readonly queues?: readonly QueueConfig[] };
  readonly scope: ProviderScope;
  readonly clock: Clock;
  /** The service's log; none where a phone system is built alone (tests). */
  readonly log?: ProviderLog;
  /** The path at which the service takes this provider's webhook requests (`/v1/webhooks/<type>/…`). */
  webhookPath(): string;
}

export interface ProviderDefinition<Type extends string = string, Settings extends z.ZodType = z.ZodType> {
  /** The provider's `type` in the config, and in its webhook's path. */
  readonly type: Type;
  /** Its `settings` in the config, with their checks and defaults. */
  readonly settings: Settings;
  /** Its own defaults of the common fields, where the service's do not suit it. */
  readonly defaults?: ProviderDefaults;
  /** Builds its phone system; what it can do beyond the interface's musts is what the phone system offers (`backfill`, `webhook`, …). */
  create(settings: z.output<Settings>, given: ProviderContext): PhoneSystem;
}

/** A provider type of the registry, whatever its settings. */
export type AnyProviderDefinition = ProviderDefinition<string, z.ZodType>;

/** Keeps the type name as a literal and types `create`'s settings from the schema. */
export const defineProvider = <const Type extends string, Settings extends z.ZodType>(
  definition: ProviderDefinition<Type, Settings>,
): ProviderDefinition<Type, Settings> => definition;
