/// <reference types="node" />
// The boot script is read from public/ with Node's fs and run in this test's document.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTheme, themeForAddress, type ThemeChoice } from './theme.js';

const bootScript = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../public/theme-boot.js'), 'utf8');

const prefersDark = (dark: boolean) =>
  vi.stubGlobal('matchMedia', () => ({ matches: dark, addEventListener: () => undefined, removeEventListener: () => undefined }));

/** What the app decides: the address's theme, else the stored choice, else the system's. */
const appTheme = (address: string, choice: ThemeChoice) => {
  const url = new URL(address, 'http://localhost');
  return themeForAddress(url.pathname, url.search) ?? resolveTheme(choice);
};

/** What the boot script applies to a fresh document at that address. */
const bootTheme = (address: string, choice: ThemeChoice) => {
  window.history.replaceState(null, '', address);
  if (choice === 'system') localStorage.removeItem('callboard.theme');
  else localStorage.setItem('callboard.theme', choice);
  document.documentElement.classList.remove('dark');
  new Function(bootScript)();
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
  document.documentElement.classList.remove('dark');
});

describe('themeForAddress', () => {
  it('keeps a wall screen dark unless its address asks for light', () => {
    expect(themeForAddress('/wallboard', '')).toBe('dark');
    expect(themeForAddress('/wallboard', '?theme=light&scale=1.25')).toBe('light');
    expect(themeForAddress('/wallboard', '?theme=purple')).toBe('dark');
  });

  it("lets the connection and sign-in pages follow their ?theme=, and leaves the other pages to the user's choice", () => {
    expect(themeForAddress('/connect', '?theme=dark')).toBe('dark');
    expect(themeForAddress('/connect', '')).toBeUndefined();
    expect(themeForAddress('/sign-in', '?returnTo=%2Fwallboard&theme=dark')).toBe('dark');
    expect(themeForAddress('/sign-in', '?problem=expired')).toBeUndefined();
    expect(themeForAddress('/', '?theme=dark')).toBeUndefined();
    expect(themeForAddress('/analytics', '?theme=light')).toBeUndefined();
  });
});

describe('the boot script (public/theme-boot.js)', () => {
  const addresses = [
    '/',
    '/analytics?range=7d',
    '/wallboard',
    '/wallboard?theme=light',
    '/wallboard?theme=dark',
    '/connect',
    '/connect?theme=dark',
    '/connect?theme=light',
    '/?theme=dark',
  ];
  const choices: ThemeChoice[] = ['system', 'light', 'dark'];
  const cases = addresses.flatMap((address) =>
    choices.flatMap((choice) => [true, false].map((dark) => [address, choice, dark] as const)),
  );

  it.each(cases)('applies what the app will at %s (choice %s, system dark %s)', (address, choice, dark) => {
    prefersDark(dark);
    expect(bootTheme(address, choice)).toBe(appTheme(address, choice));
  });

  it('falls back to the system when storage is refused', () => {
    prefersDark(true);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    window.history.replaceState(null, '', '/');
    new Function(bootScript)();
    expect(document.documentElement).toHaveClass('dark');
  });
});
