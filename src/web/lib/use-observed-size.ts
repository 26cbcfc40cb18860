/**
 * An element's content-box size as its ResizeObserver reports it, after layout. Like
 * `useElementSize` it never reads layout during a render or a layout effect; unlike it, the size is
 * rendered in React's own time rather than inside the observer's callback, so one frame is drawn
 * at `initial` (undefined: not measured yet), which suits a chart drawn only once it has a size.
 */
import { useEffect, useRef, useState } from 'react';
import type { Size } from './use-element-size.js';

export const useObservedSize = <Initial extends Size | undefined>(initial: () => Initial) => {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size | Initial>(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      // Not laid out (hidden): keep what was there rather than collapse to nothing.
      if (width === 0 && height === 0) return;
      setSize((before) => (before && before.width === width && before.height === height ? before : { width, height }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
};
