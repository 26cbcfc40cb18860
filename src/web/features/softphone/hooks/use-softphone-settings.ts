/**
 * The browser phone's choices, kept on this device: whether it is on, which subscriber at which
 * provider it is, the microphone and the speaker. Never its credentials: those are asked for anew.
 */
import { useCallback, useSyncExternalStore } from 'react';

const KEY = 'callboard.softphone';

export interface PhoneLine {
  accountID: string;
  applicationID: string;
  providerID: string;
  subscriberID: string;
}

export interface SoftphoneSettings {
  on: boolean;
  line?: PhoneLine;
  /** Device IDs; the browser's default where undefined. */
  microphone?: string;
  speaker?: string;
}

const OFF: SoftphoneSettings = { on: false };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const lineOf = (value: unknown): PhoneLine | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const { accountID, applicationID, providerID, subscriberID } = value as Record<string, unknown>;
  const [a, b, c, d] = [text(accountID), text(applicationID), text(providerID), text(subscriberID)];
  return a && b && c && d ? { accountID: a, applicationID: b, providerID: c, subscriberID: d } : undefined;
};

const parse = (stored: string | null): SoftphoneSettings => {
  if (!stored) return OFF;
  try {
    const value = JSON.parse(stored) as Record<string, unknown>;
    const line = lineOf(value.line);
    const microphone = text(value.microphone);
    const speaker = text(value.speaker);
    return { on: value.on === true, ...(line ? { line } : {}), ...(microphone ? { microphone } : {}), ...(speaker ? { speaker } : {}) };
  } catch {
    return OFF;
  }
};

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

// The same object while the stored text stays: useSyncExternalStore compares snapshots by identity.
let last: { stored: string | null; settings: SoftphoneSettings } = { stored: null, settings: OFF };
const read = (): SoftphoneSettings => {
  const stored = localStorage.getItem(KEY);
  if (stored !== last.stored) last = { stored, settings: parse(stored) };
  return last.settings;
};

/** The choices, and a change to them that is kept (a field given as undefined is forgotten). */
export const useSoftphoneSettings = (): [SoftphoneSettings, (change: Partial<SoftphoneSettings>) => void] => {
  const settings = useSyncExternalStore(subscribe, read, () => OFF);
  const change = useCallback((next: Partial<SoftphoneSettings>) => {
    localStorage.setItem(KEY, JSON.stringify({ ...read(), ...next }));
    for (const listener of listeners) listener();
  }, []);
  return [settings, change];
};
