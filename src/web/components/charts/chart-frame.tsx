/**
 * The box a recharts chart is drawn in. Its size comes from a ResizeObserver, after layout (never
 * a layout read during a render, as recharts' ResponsiveContainer makes), and the chart's first
 * drawing is a transition: building recharts' store and laying out its axes yields to whatever
 * else the page has to do, and an update that comes meanwhile starts it again rather than wait.
 */
import { useDeferredValue, useEffect, type ReactNode } from 'react';
import type { Size } from '../../lib/use-element-size.js';
import { useObservedSize } from '../../lib/use-observed-size.js';

/** Where no layout engine measures (tests), a chart is drawn at this size. */
export const UNMEASURED: Size = { width: 640, height: 256 };
const unmeasured = () => (typeof ResizeObserver === 'undefined' ? UNMEASURED : undefined);

export const ChartFrame = ({ children, onWidth }: { children: (size: Size) => ReactNode; onWidth?: (width: number) => void }) => {
  const [box, measured] = useObservedSize(unmeasured);
  const size = useDeferredValue(measured, undefined);
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
