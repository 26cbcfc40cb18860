/** The main navigation's pages, and which of them a person's roles use; a token keeps the four it always had. */
import type { Role } from '../../contract/session.js';

type PageID = 'live' | 'desk' | 'analytics' | 'reports' | 'wallboard';

interface NavPage {
  id: PageID;
  label: string;
  pathname: string;
  /** Active on this address only, not below it (the live view is `/`). */
  end?: boolean;
}

const NAV_PAGES: readonly NavPage[] = [
  { id: 'live', label: 'Live', pathname: '/', end: true },
  { id: 'desk', label: 'My desk', pathname: '/desk' },
  { id: 'analytics', label: 'Analytics', pathname: '/analytics' },
  { id: 'reports', label: 'Reports', pathname: '/reports' },
  { id: 'wallboard', label: 'Wallboard', pathname: '/wallboard' },
];

const PAGES_BY_ROLE: Record<Role, readonly PageID[]> = {
  // Their own state, calls, callers to call back and click-to-call, on one page.
  agent: ['desk'],
  supervisor: ['live', 'analytics', 'reports', 'wallboard'],
  analyst: ['reports', 'analytics'],
  // Everything a supervisor and an analyst see; My desk only with the agent's role too, since it needs a phone line of one's own.
  admin: ['live', 'analytics', 'reports', 'wallboard'],
};

const TOKEN_PAGES: readonly PageID[] = ['live', 'analytics', 'reports', 'wallboard'];

/** `roles` undefined: a token's connection. */
export const navPagesFor = (roles: readonly Role[] | undefined): NavPage[] => {
  const shown = new Set(roles === undefined ? TOKEN_PAGES : roles.flatMap((role) => PAGES_BY_ROLE[role]));
  return NAV_PAGES.filter((page) => shown.has(page.id));
};
