/** Who did something, as the audit trail and its log lines name them: a token by its name, a person by subject and email. */
import type { Principal } from './token-index.js';

export interface Actor {
  /** The token's name, or the person's email. */
  actor: string;
  actorSubject?: string;
  actorEmail?: string;
}

export const actorOf = (principal: Principal): Actor =>
  principal.person
    ? { actor: principal.person.email, actorSubject: principal.person.subject, actorEmail: principal.person.email }
    : { actor: principal.tokenName };
