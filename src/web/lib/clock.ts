/** One shared ticking clock: every live duration on screen reads the same second from one timer. */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

const tick = () => {
  now = Date.now();
  for (const listener of listeners) listener();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  if (!timer) {
    tick();
    timer = setInterval(tick, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

const snapshot = () => now;

/** Epoch ms, updated once a second for every subscriber at the same moment. */
export const useNow = (): number => useSyncExternalStore(subscribe, snapshot, snapshot);

/** The shared clock's current value, outside React. */
export const clockNow = (): number => (timer ? now : Date.now());
