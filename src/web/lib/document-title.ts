/**
 * The tab's title, from the parts that speak in it: the page's own (the live count), and before it
 * the alerts, so a tab in the background still says when something is wrong.
 */
import { useEffect } from 'react';

type Part = 'alert' | 'page';
const parts: Record<Part, string> = { alert: '', page: 'Callboard' };

/**
 * The page's part at most once a second: on a busy center the live count in it moves with every
 * change (ten times a second), each title costs the browser a millisecond or more of main-thread
 * work, and nobody reads a tab's title faster. The first change after a quiet second shows at
 * once, and an alert's part always does.
 */
export const TITLE_EVERY_MS = 1000;
let lastWrite = -Infinity;
let pending: ReturnType<typeof setTimeout> | undefined;

const write = () => {
  pending = undefined;
  lastWrite = performance.now();
  const title = parts.alert ? `${parts.alert} · ${parts.page}` : parts.page;
  if (document.title !== title) document.title = title;
};

const schedule = (part: Part) => {
  if (part === 'alert') {
    clearTimeout(pending);
    write();
    return;
  }
  if (pending !== undefined) return;
  const wait = lastWrite + TITLE_EVERY_MS - performance.now();
  if (wait <= 0) write();
  else pending = setTimeout(write, wait);
};

/** Sets one part of the title while the component is mounted. */
export const useTitlePart = (part: Part, text: string): void => {
  useEffect(() => {
    parts[part] = text;
    schedule(part);
    return () => {
      parts[part] = part === 'page' ? 'Callboard' : '';
      schedule(part);
    };
  }, [part, text]);
};
