/**
 * An element's size in px, kept up to date as it resizes (a first guess until it is laid out).
 *
 * It is read in the element's ResizeObserver, which runs after the browser's own layout and before
 * it paints, and the new size is rendered there at once (`flushSync`), so the first frame on screen
 * already has it. Reading the size in a layout effect instead forces the page's style and layout in
 * the middle of React's commit: on a first load that is the whole page's, twice.
 *
 * Rendering there costs something too: React first runs the effects of the commit before it, and
 * on a first load those are the whole page's (every query subscribes and fetches). So it is done
 * only while the element shows something drawn from its size (`beforePaint`); an empty grid takes
 * its size in React's own time, and the page's effects keep a task of their own.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

export interface Size {
  width: number;
  height: number;
}

export const useElementSize = (ref: RefObject<HTMLElement | null>, initial: Size, { beforePaint = true } = {}): Size => {
  const [size, setSize] = useState(initial);
  const urgent = useRef(beforePaint);
  useLayoutEffect(() => {
    urgent.current = beforePaint;
  }, [beforePaint]);
  useLayoutEffect(() => {
    const element = ref.current;
    // Without layout (a test DOM) the guess stands.
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      const { width, height } = element.getBoundingClientRect();
      // Not laid out (hidden): keep the guess rather than collapse to nothing.
      if (width === 0 && height === 0) return;
      const update = () => setSize((before) => (before.width === width && before.height === height ? before : { width, height }));
      if (urgent.current) flushSync(update);
      else update();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
};
