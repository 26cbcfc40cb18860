/** Whether the screen is at least as wide as Tailwind's `md` (48rem): for a part that lays out differently there and renders only the layout in use. */
import { useSyncExternalStore } from 'react';

const QUERY = '(min-width: 48rem)';

const media = () => (typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : undefined);

const subscribe = (onChange: () => void) => {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};

/** Without media queries (a test's DOM), wide. */
const read = () => media()?.matches ?? true;

export const useWideScreen = (): boolean => useSyncExternalStore(subscribe, read, () => true);
