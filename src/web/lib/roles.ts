/** A signed-in person's roles in words: what the header says, and what decides their pages. */
import type { Role } from '../../contract/session.js';

const ROLE_LABEL: Record<Role, string> = {
  admin: 'Administrator',
  supervisor: 'Supervisor',
  analyst: 'Analyst',
  agent: 'Agent',
};

/** In the order of their reach, whatever order the service lists them in. */
const ROLE_ORDER: readonly Role[] = ['admin', 'supervisor', 'analyst', 'agent'];

/** "Supervisor and Agent", "Administrator, Analyst and Agent". */
export const rolesText = (roles: readonly Role[]): string => {
  const words = ROLE_ORDER.filter((role) => roles.includes(role)).map((role) => ROLE_LABEL[role]);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
};
