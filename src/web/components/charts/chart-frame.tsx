/**
 * The box a recharts chart is drawn in. Its size comes from a ResizeObserver, after layout (never
 * a layout read during a render, as recharts' ResponsiveContainer makes). The chart is drawn once
 * its box comes near the screen (a chart below the fold, on a phone or further down analytics,
 * costs nothing until the reader scrolls to it), and its first drawing is a transition: building
 * recharts' store and laying out its axes yields to whatever else the page has to do.
 */
import { useDeferredValue, useEffect, useState, type ReactNode, type RefObject } from 'react';
import type { Size } from '../../lib/use-element-size.js';
import { useObservedSize } from '../../lib/use-observed-size.js';

/** Where no layout engine measures (tests), a chart is drawn at this size. */
export const UNMEASURED: Size = { width: 640, height: 256 };
const unmeasured = () => (typeof ResizeObserver === 'undefined' ? UNMEASURED : undefined);

/** How near the screen a box must come to be drawn: a quarter of the screen's height ahead, so a scroll finds it drawn. */
const NEAR_SCREEN = '25% 0px';

/** Whether the element has come near the screen once; without IntersectionObserver it always has. */
const useNearScreenOnce = (ref: RefObject<Element | null>): boolean => {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: NEAR_SCREEN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
};

export const ChartFrame = ({ children, onWidth }: { children: (size: Size) => ReactNode; onWidth?: (width: number) => void }) => {
  const [box, measured] = useObservedSize(unmeasured);
  const seen = useNearScreenOnce(box);
  const size = useDeferredValue(seen ? measured : undefined, undefined);
  const width = size?.width;
  useEffect(() => {
    if (width !== undefined) onWidth?.(width);
  }, [onWidth, width]);
  const drawable = size !== undefined && size.width > 0 && size.height > 0;
  return (
    <div ref={box} className="h-full w-full">
      {drawable ? children(size) : null}
    </div>
  );
};
