/** Loads the phone-number rules (phone-rules.ts) once, off the first screen, and re-renders what shows numbers when they arrive. */
import { useEffect, useSyncExternalStore } from 'react';
import type * as PhoneRulesModule from './phone-rules.js';

export type PhoneRules = typeof PhoneRulesModule;

let rules: PhoneRules | undefined;
let loading: Promise<PhoneRules> | undefined;
const listeners = new Set<() => void>();

/** The rules, once loaded; until then numbers show as their digits. */
export const phoneRules = (): PhoneRules | undefined => rules;

/** Starts loading the rules (once; again after a failed attempt) and resolves when they are in use. */
export const loadPhoneRules = (): Promise<PhoneRules> =>
  (loading ??= import('./phone-rules.js').then(
    (loaded) => {
      rules = loaded;
      for (const listener of listeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether numbers are written by the rules yet: components that show numbers read it to re-render when they arrive. */
export const usePhoneRulesReady = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => rules !== undefined,
    () => false,
  );

/**
 * Loads the rules once the page's first data is on screen: the numbers are then shown as digits
 * for a moment, and the first screen stays free of 30 KiB of phone metadata.
 */
export const useLoadPhoneRules = (dataOnScreen: boolean): void => {
  useEffect(() => {
    // A failure leaves the digits on screen; the next page that shows data tries again.
    if (dataOnScreen) loadPhoneRules().catch(() => undefined);
  }, [dataOnScreen]);
};
