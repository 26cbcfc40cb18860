/**
 * Alert tones, played through Web Audio. Browsers let a page make sound only after someone clicked
 * on it, so sound is turned on by a click ("Enable sound"); the choice is remembered on this device,
 * and after a reload the first click or key anywhere on the page lets the browser play again (a
 * kiosk browser started with an autoplay policy that allows it plays at once).
 */
import { useSyncExternalStore } from 'react';
import type { AlertLevel } from './evaluate-alerts.js';

const KEY = 'callboard.alertSound';

export type SoundState = 'off' | 'waiting-for-click' | 'on' | 'unsupported';

let context: AudioContext | undefined;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

const wanted = (): boolean => {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
};

const supported = () => typeof window !== 'undefined' && typeof window.AudioContext === 'function';

const state = (): SoundState => {
  if (!supported()) return 'unsupported';
  if (!wanted()) return 'off';
  return context?.state === 'running' ? 'on' : 'waiting-for-click';
};

/** Creates or wakes the audio context; only a click or key press lets the browser start it. */
const wake = async (): Promise<void> => {
  if (!supported()) return;
  context ??= new AudioContext();
  context.onstatechange = emit;
  if (context.state !== 'running') await context.resume().catch(() => undefined);
  emit();
};

/** Called from a click: sound on (remembered), or off. */
export const setSound = async (on: boolean): Promise<void> => {
  try {
    if (on) localStorage.setItem(KEY, 'on');
    else localStorage.removeItem(KEY);
  } catch {
    // Not remembered where storage is off: on for this page only.
  }
  if (on) await wake();
  else emit();
};

let unlockArmed = false;
/** With sound wanted but the context asleep (after a reload), the first click or key wakes it. */
const armUnlock = () => {
  if (unlockArmed || typeof document === 'undefined' || !wanted()) return;
  unlockArmed = true;
  const unlock = () => {
    document.removeEventListener('pointerdown', unlock, true);
    document.removeEventListener('keydown', unlock, true);
    unlockArmed = false;
    void wake();
  };
  document.addEventListener('pointerdown', unlock, true);
  document.addEventListener('keydown', unlock, true);
  // Where the browser allows sound without a click, it starts at once.
  void wake();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  armUnlock();
  return () => listeners.delete(listener);
};

export const useSoundState = (): SoundState => useSyncExternalStore(subscribe, state, () => 'off');

/** One short tone for a warning, three rising for a critical alert; nothing when sound is not on. */
export const playAlertTone = (level: AlertLevel): boolean => {
  if (state() !== 'on' || !context) return false;
  const notes = level === 'critical' ? [660, 880, 1100] : [660];
  notes.forEach((frequency, i) => {
    const at = (context as AudioContext).currentTime + i * 0.22;
    const oscillator = (context as AudioContext).createOscillator();
    const gain = (context as AudioContext).createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
    oscillator.connect(gain).connect((context as AudioContext).destination);
    oscillator.start(at);
    oscillator.stop(at + 0.2);
  });
  return true;
};
