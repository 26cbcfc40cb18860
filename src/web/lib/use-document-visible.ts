/** Whether the tab is shown: a hidden tab need not hold a stream open, it catches up when shown again. */
import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};

const isVisible = () => document.visibilityState !== 'hidden';

export const useDocumentVisible = (): boolean => useSyncExternalStore(subscribe, isVisible, () => true);
