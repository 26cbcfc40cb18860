/** Loads the phone-number rules (phone-rules.ts) once, off the first screen, and re-renders what shows numbers when they arrive. */
import { startTransition, useEffect, useState } from 'react';
import type * as PhoneRulesModule from './phone-rules.js';
import { whenIdle } from './when-idle.js';

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
  return () => {
    listeners.delete(listener);
  };
};

/**
 * Whether numbers are written by the rules yet: components that show numbers read it to re-render
 * when they arrive. That re-render is a transition, which React may interrupt: every number on the
 * page is written anew, and in one piece that would block the main thread.
 */
export const usePhoneRulesReady = (): boolean => {
  const [ready, setReady] = useState(rules !== undefined);
  useEffect(() => {
    if (ready) return;
    const arrived = () => startTransition(() => setReady(true));
    // The rules may have come between this render and this effect.
    if (rules !== undefined) arrived();
    return subscribe(arrived);
  }, [ready]);
  return ready;
};

/**
 * Loads the rules once the page's first data is on screen: the numbers are then shown as digits
 * for a moment, and the first screen stays free of 30 KiB of phone metadata.
 */
export const useLoadPhoneRules = (dataOnScreen: boolean): void => {
  useEffect(() => {
    if (!dataOnScreen) return undefined;
    // A failure leaves the digits on screen; the next page that shows data tries again.
    return whenIdle(() => void loadPhoneRules().catch(() => undefined));
  }, [dataOnScreen]);
};
