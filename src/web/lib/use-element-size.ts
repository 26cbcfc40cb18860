/** An element's size in px, kept up to date as it resizes (a first guess until it is laid out). */
import { useLayoutEffect, useState, type RefObject } from 'react';

export interface Size {
  width: number;
  height: number;
}

export const useElementSize = (ref: RefObject<HTMLElement | null>, initial: Size): Size => {
  const [size, setSize] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      // Not laid out (hidden, or no layout at all): keep the guess rather than collapse to nothing.
      if (width === 0 && height === 0) return;
      setSize((before) => (before.width === width && before.height === height ? before : { width, height }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
};
