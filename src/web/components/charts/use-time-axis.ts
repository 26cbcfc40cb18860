/** A chart's time axis sized to the chart: as many round ticks of the displayed zone as fit, with their labels. */
import { useCallback, useMemo, useState } from 'react';
import { tickLabel, timeAxis } from '../../lib/time-ticks.js';

export interface TimeAxis {
  ticks: number[];
  format: (at: number) => string;
  /** Hears the chart's width: the tick count follows it. */
  onWidth: (width: number) => void;
}

/** A label centred this close to the chart's right end would stick out of it. */
const RIGHT_EDGE_PX = 24;

/** About one label every `spacingPx` pixels ("Mon 23" or "14:00" plus room on each side). */
export const useTimeAxis = (from: number, to: number, zone: string, spacingPx = 72): TimeAxis => {
  const [width, setWidth] = useState(0);
  const maxTicks = Math.max(2, Math.floor(width / spacingPx));
  const axis = useMemo(() => {
    const { ticks, stepMinutes } = timeAxis(from, to, zone, maxTicks);
    const lastAt = to - ((to - from) * RIGHT_EDGE_PX) / Math.max(width, 1);
    return { ticks: ticks.filter((at) => at <= lastAt), stepMinutes };
  }, [from, to, zone, maxTicks, width]);
  const format = useCallback((at: number) => tickLabel(at, zone, axis.stepMinutes), [zone, axis.stepMinutes]);
  const onWidth = useCallback((next: number) => setWidth(next), []);
  return { ticks: axis.ticks, format, onWidth };
};
