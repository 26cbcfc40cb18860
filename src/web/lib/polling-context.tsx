/** Pause / resume of live polling, shared by the toolbar and every feed. */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

interface PollingValue {
  paused: boolean;
  setPaused: (paused: boolean) => void;
}

const PollingContext = createContext<PollingValue>({ paused: false, setPaused: () => undefined });

export const PollingProvider = ({ children }: { children: ReactNode }) => {
  const [paused, setPaused] = useState(false);
  const value = useMemo(() => ({ paused, setPaused }), [paused]);
  return <PollingContext.Provider value={value}>{children}</PollingContext.Provider>;
};

export const usePolling = (): PollingValue => useContext(PollingContext);
