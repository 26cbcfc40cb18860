/**
 * Light / dark theme: the system's by default, the user's choice when made (kept on this device),
 * and on the pages without a theme control (wallboard, connection and sign-in pages) the address's `?theme=`.
 * public/theme-boot.js applies the same rules before the first paint.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

export type Theme = 'light' | 'dark';
export type ThemeChoice = 'system' | Theme;
const KEY = 'callboard.theme';
const media = () => window.matchMedia('(prefers-color-scheme: dark)');

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  const query = media();
  query.addEventListener('change', listener);
  return () => {
    listeners.delete(listener);
    query.removeEventListener('change', listener);
  };
};

const readChoice = (): ThemeChoice => {
  const stored = localStorage.getItem(KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
};

export const resolveTheme = (choice: ThemeChoice): 'light' | 'dark' =>
  choice === 'system' ? (media().matches ? 'dark' : 'light') : choice;

/** The stored choice, and a setter that persists it. */
export const useThemeChoice = (): [ThemeChoice, (choice: ThemeChoice) => void] => {
  const choice = useSyncExternalStore(subscribe, readChoice, () => 'system' as const);
  const setChoice = useCallback((next: ThemeChoice) => {
    if (next === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
    for (const listener of listeners) listener();
  }, []);
  return [choice, setChoice];
};

const parseTheme = (text: string | null): Theme | undefined => (text === 'light' || text === 'dark' ? text : undefined);

/**
 * The theme an address imposes: a wall screen is dark unless `?theme=light`; the connection and
 * sign-in pages follow their `?theme=`, which a redirect carries over from the page they lead back to.
 */
export const themeForAddress = (pathname: string, search: string): Theme | undefined => {
  const asked = parseTheme(new URLSearchParams(search).get('theme'));
  if (pathname === '/wallboard') return asked ?? 'dark';
  if (pathname === '/connect' || pathname === '/sign-in') return asked;
  return undefined;
};

export const useAddressTheme = (): Theme | undefined => {
  const { pathname, search } = useLocation();
  return themeForAddress(pathname, search);
};

/** Applies a theme to the document while mounted; `override` (e.g. the wallboard's URL) wins. */
export const useAppliedTheme = (override?: Theme): Theme => {
  const [choice] = useThemeChoice();
  const systemDark = useSyncExternalStore(subscribe, () => media().matches, () => false);
  const theme = override ?? (choice === 'system' ? (systemDark ? 'dark' : 'light') : choice);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', theme === 'dark');
  }, [theme]);
  return theme;
};
