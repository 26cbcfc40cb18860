/** Light / dark theme: the system's by default, the user's choice when made (kept on this device). */
import { useCallback, useEffect, useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
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

/** Applies a theme to the document while mounted; `override` (e.g. the wallboard's URL) wins. */
export const useAppliedTheme = (override?: 'light' | 'dark'): 'light' | 'dark' => {
  const [choice] = useThemeChoice();
  const systemDark = useSyncExternalStore(subscribe, () => media().matches, () => false);
  const theme = override ?? (choice === 'system' ? (systemDark ? 'dark' : 'light') : choice);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', theme === 'dark');
  }, [theme]);
  return theme;
};
