/**
 * Concurrency over the range: each direction's busiest moment per bucket, stacked (inbound solid,
 * outbound hatched), the average as a line, and the range's peak marked.
 */
import { memo, useId } from 'react';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { countAxis, scales, stepLine, type Value } from '../../../components/charts/chart-paths.js';
import { HatchPattern, StackedSteps, svgID, type Series } from '../../../components/charts/series-style.js';
import { TimeChart } from '../../../components/charts/time-chart.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';
import { peakBucket } from '../utils/chart-points.js';

export interface HistoryChartProps {
  buckets: readonly ConcurrencyBucket[];
  /** The range on screen, which the time axis spans whole. */
  from: number;
  to: number;
  timeZone: string;
}

type Point = ConcurrencyBucket & { at: number };

const zero: Value<Point> = () => 0;
const inbound: Value<Point> = (b) => b.peakInbound;
const busiest: Value<Point> = (b) => b.peakInbound + b.peakOutbound;
const average: Value<Point> = (b) => b.average;
/** Each direction's lower and upper edge: outbound stacked on inbound. */
const edges: Record<Series, [Value<Point>, Value<Point>]> = { inbound: [zero, inbound], outbound: [inbound, busiest] };

export const HistoryChart = memo(({ buckets, from, to, timeZone }: HistoryChartProps) => {
  const id = useId();
  const hatchID = svgID(id, 'history-hatch');
  const axis = useTimeAxis(from, to, timeZone);
  const points: Point[] = buckets.map((b) => ({ ...b, at: Date.parse(b.start) }));
  const peak = peakBucket(buckets);
  const { yTop, ticks } = countAxis(Math.max(0, ...points.map((p) => busiest(p) ?? 0), ...points.map((p) => p.average)));
  return (
    <TimeChart
      points={points}
      from={from}
      to={to}
      timeTicks={axis}
      yTop={yTop}
      yTicks={ticks}
      margin={{ top: 20, right: 16 }}
      clipID={svgID(id, 'history-plot')}
      defs={<HatchPattern id={hatchID} />}
      plot={(frame) => (
        <>
          <StackedSteps points={points} edges={edges} frame={frame} hatchID={hatchID} strokeWidth={2} />
          <path d={stepLine(points, average, frame)} fill="none" stroke="var(--ink)" strokeDasharray="2 4" strokeWidth={1.5} />
        </>
      )}
      over={(frame) => {
        if (!peak) return null;
        const { x, y } = scales(frame);
        const at = Date.parse(peak.start);
        const top = peak.peakInbound + peak.peakOutbound;
        return (
          <g>
            <circle cx={x(at)} cy={y(top)} r={5} fill="var(--ink)" stroke="var(--panel)" strokeWidth={2} />
            <text x={x(at)} y={y(top) - 10} textAnchor="middle" style={{ fill: 'var(--ink)', fontSize: '0.8125rem', fontWeight: 600 }}>
              Peak {peak.peak}
            </text>
          </g>
        );
      }}
      readout={(b) => ({
        heading: formatDateTime(b.at, timeZone),
        rows: [
          { name: 'Busiest inbound', value: String(b.peakInbound) },
          { name: 'Busiest outbound', value: String(b.peakOutbound) },
          { name: 'Average live', value: String(b.average) },
        ],
      })}
    />
  );
});
HistoryChart.displayName = 'HistoryChart';
