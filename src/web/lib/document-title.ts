/**
 * The tab's title, from the parts that speak in it: the page's own (the live count), and before it
 * the alerts, so a tab in the background still says when something is wrong.
 */
import { useEffect } from 'react';

type Part = 'alert' | 'page';
const parts: Record<Part, string> = { alert: '', page: 'Callboard' };

const write = () => {
  document.title = parts.alert ? `${parts.alert} · ${parts.page}` : parts.page;
};

/** Sets one part of the title while the component is mounted. */
export const useTitlePart = (part: Part, text: string): void => {
  useEffect(() => {
    parts[part] = text;
    write();
    return () => {
      parts[part] = part === 'page' ? 'Callboard' : '';
      write();
    };
  }, [part, text]);
};
