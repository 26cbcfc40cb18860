/**
 * What a signed-in person may see and do, worked out once at sign-in from the groups in their ID
 * token and kept with the session: their roles, the queues they see, and the subscribers an
 * agent is bound to (the ones whose email is theirs). A person in several groups holds the union.
 */
import type { Permission } from '../../contract/me.js';
import type { Role } from '../../contract/session.js';
import type { RoleMapping } from '../config/auth-config.js';

export interface SubscriberBinding {
  applicationID: string;
  providerID: string;
  subscriberID: string;
}

export interface Grants {
  roles: Role[];
  /** The queues whose calls they see: "*" for every call (an admin, a supervisor or analyst of every queue). */
  queues: '*' | string[];
  /** An agent's own subscribers: they see these subscribers' calls and place calls as them. */
  subscribers: SubscriberBinding[];
  /**
   * Where they may end calls: a supervisor's queues ("*" for an admin, or a supervisor of every
   * queue). What they see through another role (an analyst's queues) gives no control there.
   */
  controlQueues: '*' | string[];
}

const ROLE_ORDER: readonly Role[] = ['admin', 'supervisor', 'analyst', 'agent'];

const PERMISSIONS_BY_ROLE: Record<Role, readonly Permission[]> = {
  agent: ['calls:read', 'calls:write'],
  supervisor: ['calls:read', 'calls:control'],
  analyst: ['calls:read', 'calls:export'],
  admin: ['calls:read', 'calls:write', 'calls:control', 'calls:export'],
};

/** The roles and queues the person's groups map to; no role at all when none of their groups is mapped. */
export const grantsOfGroups = (mappings: readonly RoleMapping[], groups: readonly string[]): Omit<Grants, 'subscribers'> => {
  const held = mappings.filter((mapping) => groups.includes(mapping.group));
  const roles = ROLE_ORDER.filter((role) => held.some((mapping) => mapping.role === role));
  const everyQueue = held.some(
    (mapping) =>
      mapping.role === 'admin' || ((mapping.role === 'supervisor' || mapping.role === 'analyst') && mapping.queues === undefined),
  );
  const queues = everyQueue ? '*' : [...new Set(held.flatMap((mapping) => mapping.queues ?? []))].sort();
  const supervising = held.filter((mapping) => mapping.role === 'supervisor');
  const controlQueues =
    roles.includes('admin') || supervising.some((mapping) => mapping.queues === undefined)
      ? '*'
      : [...new Set(supervising.flatMap((mapping) => mapping.queues ?? []))].sort();
  return { roles, queues, controlQueues };
};

export const permissionsOf = (roles: readonly Role[]): Set<Permission> =>
  new Set(roles.flatMap((role) => PERMISSIONS_BY_ROLE[role]));

/** The groups claim's values: an array of strings, or one string; anything else holds none. */
export const groupsOfClaim = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

/** A claim by its dotted path in the ID token's claims. */
export const claimAt = (claims: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      claims,
    );
