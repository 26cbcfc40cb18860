/**
 * A component whose code is not on the first screen: it loads when first rendered (inside the
 * caller's Suspense boundary), or earlier through `preload()` (one request, again after a failed
 * one). Once loaded it renders at once, without passing through the Suspense fallback; `loaded()`
 * gives it, for a caller that renders its own placeholder instead of suspending.
 */
import { lazy, useState, type ComponentType } from 'react';

export const lazyComponent = <P extends object>(load: () => Promise<ComponentType<P>>) => {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  const Component = (props: P) => {
    // Chosen once for each mount: moving from the lazy wrapper to the loaded component would remount it and lose its state.
    const [Type] = useState<ComponentType<P>>(() => loaded ?? (Lazy as ComponentType<P>));
    return <Type {...props} />;
  };
  return { Component, preload, loaded: (): ComponentType<P> | undefined => loaded };
};
