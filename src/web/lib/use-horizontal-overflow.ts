/**
 * Whether an element's content is wider than the element, kept up to date as either resizes. Read
 * in a ResizeObserver after the browser's layout and rendered before the paint, as `useElementSize`
 * does, so it never forces a layout of its own.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

export const useHorizontalOverflow = (ref: RefObject<HTMLElement | null>): boolean => {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    // Without layout (a test DOM) nothing can overflow.
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const wider = element.scrollWidth > element.clientWidth + 1;
      flushSync(() => setOverflows(wider));
    });
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
};
