/**
 * One shared ticking clock: every live duration on screen reads the same second from one timer.
 * A part of the page may take a clock of its own that follows the shared one only while that part
 * is on screen (`useOnScreenClock`): a duration nobody can see is not redrawn every second, which on
 * a phone or a small board is most of the page's work between updates.
 */
import { createContext, useCallback, useContext, useState, useSyncExternalStore } from 'react';

/** What `useNow` reads: a value and a way to hear that it changed. */
export interface Clock {
  subscribe(listener: () => void): () => void;
  read(): number;
}

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

const sharedClock: Clock = { subscribe, read: () => now };

const ClockContext = createContext<Clock>(sharedClock);

/** Makes `clock` the one that `useNow` reads in `children`. */
export const ClockScope = ClockContext;

/** Epoch ms, updated once a second for every subscriber at the same moment (while on screen, inside an on-screen clock's scope). */
export const useNow = (): number => {
  const clock = useContext(ClockContext);
  return useSyncExternalStore(clock.subscribe, clock.read, clock.read);
};

/** The shared clock's current value, outside React. */
export const clockNow = (): number => (timer ? now : Date.now());

interface OnScreenClock extends Clock {
  /** Follows `element` in and out of the viewport; the returned function stops that. */
  watch(element: Element): () => void;
}

/**
 * A clock that passes on the shared clock's seconds while its element is on screen, and tells of no
 * new second while it is not (what renders there anyway reads the current one). Back on screen it
 * tells of the current second at once, so nothing shown is ever a second behind. Without
 * IntersectionObserver it is always on screen.
 */
export const onScreenClock = (): OnScreenClock => {
  let onScreen = true;
  let value = now;
  const own = new Set<() => void>();
  let leaveShared: (() => void) | undefined;
  // Off screen the value still moves, silently: whatever renders there for another reason (an
  // update of the calls, a row mounting) reads the current second; only the redraws wait.
  let untold = false;
  const follow = () => {
    if (value !== now) {
      value = now;
      untold = true;
    }
    if (!onScreen || !untold) return;
    untold = false;
    for (const listener of own) listener();
  };
  return {
    read: () => value,
    subscribe: (listener) => {
      own.add(listener);
      if (!leaveShared) {
        // Unheard since its last subscriber left, `value` may be old. Subscribing starts the shared
        // timer if it was stopped, which ticks at once and brings `now` up to date.
        leaveShared = subscribe(follow);
        follow();
      }
      return () => {
        own.delete(listener);
        if (own.size > 0) return;
        leaveShared?.();
        leaveShared = undefined;
      };
    },
    watch: (element) => {
      if (typeof IntersectionObserver === 'undefined') return () => {};
      const observer = new IntersectionObserver((entries) => {
        const latest = entries[entries.length - 1];
        if (!latest) return;
        onScreen = latest.isIntersecting;
        follow();
      });
      observer.observe(element);
      return () => {
        observer.disconnect();
        onScreen = true;
      };
    },
  };
};

/**
 * An on-screen clock for one part of the page: put `ref` on the part's element and `clock` in a
 * `ClockScope` around what it holds.
 */
export const useOnScreenClock = <T extends Element>() => {
  const [clock] = useState(onScreenClock);
  const ref = useCallback((element: T | null) => (element ? clock.watch(element) : undefined), [clock]);
  return { ref, clock };
};
