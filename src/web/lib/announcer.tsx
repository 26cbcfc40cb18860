/** The page's one polite live region: meaningful changes only (feed lost or back, call progress). */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

const AnnouncerContext = createContext<(message: string) => void>(() => undefined);

export const AnnouncerProvider = ({ children }: { children: ReactNode }) => {
  const [message, setMessage] = useState('');
  const announce = useCallback((next: string) => setMessage(next), []);
  const value = useMemo(() => announce, [announce]);
  return (
    <AnnouncerContext.Provider value={value}>
      {children}
      <div aria-live="polite" role="status" className="sr-only">
        {message}
      </div>
    </AnnouncerContext.Provider>
  );
};

export const useAnnounce = (): ((message: string) => void) => useContext(AnnouncerContext);
