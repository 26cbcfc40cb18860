/**
 * Runs work the page can do without when the browser has nothing else to do (at the latest after
 * `timeoutMs`), in a task of its own: loads started after the first data (code for later clicks,
 * the phone rules) then stay out of the task that puts that data on screen.
 */
export const whenIdle = (work: () => void, timeoutMs = 2000): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 0);
  return () => clearTimeout(timer);
};
