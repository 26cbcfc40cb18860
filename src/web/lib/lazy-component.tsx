/**
 * A component whose code is not on the first screen: it loads when first rendered (inside the
 * caller's Suspense boundary), or earlier through `preload()` (one request, again after a failed
 * one). Once loaded it renders at once, without passing through the Suspense fallback; `loaded()`
 * gives it, for a caller that renders its own placeholder instead of suspending. A failed load
 * throws to the nearest error boundary (`PartBoundary`), and stays failed, however often React
 * mounts it again, until `retryFailedLoads()` (the boundary's Try again): one request per try.
 */
import { lazy, useState, type ComponentType } from 'react';

/** Counts the tries asked for: a lazy component that failed before the latest one loads again. */
let tries = 0;

export const retryFailedLoads = (): void => {
  tries += 1;
};

export const lazyComponent = <P extends object>(load: () => Promise<ComponentType<P>>) => {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  // React keeps a lazy component's failure for good: a new try needs a new one.
  let current: { Lazy: ComponentType<P>; try: number; failed: boolean } | undefined;
  const preload = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        if (current) current.failed = true;
        throw error;
      },
    ));
  const lazyType = (): ComponentType<P> => {
    if (!current || (current.failed && current.try !== tries))
      current = { Lazy: lazy(async () => ({ default: await preload() })), try: tries, failed: false };
    return current.Lazy;
  };
  const Component = (props: P) => {
    // Chosen once for each mount: moving from the lazy wrapper to the loaded component would remount it and lose its state.
    const [Type] = useState<ComponentType<P>>(() => loaded ?? lazyType());
    return <Type {...props} />;
  };
  return { Component, preload, loaded: (): ComponentType<P> | undefined => loaded };
};
