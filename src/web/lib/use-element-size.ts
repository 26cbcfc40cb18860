/**
 * An element's size in px, kept up to date as it resizes (a first guess until it is laid out).
 *
 * It is read in the element's ResizeObserver, which runs after the browser's own layout and before
 * it paints, and the new size is rendered there at once (`flushSync`), so the first frame on screen
 * already has it. Reading the size in a layout effect instead forces the page's style and layout in
 * the middle of React's commit: on a first load that is the whole page's, twice.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

export interface Size {
  width: number;
  height: number;
}

export const useElementSize = (ref: RefObject<HTMLElement | null>, initial: Size): Size => {
  const [size, setSize] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    // Without layout (a test DOM) the guess stands.
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      const { width, height } = element.getBoundingClientRect();
      // Not laid out (hidden): keep the guess rather than collapse to nothing.
      if (width === 0 && height === 0) return;
      flushSync(() => setSize((before) => (before.width === width && before.height === height ? before : { width, height })));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
};
