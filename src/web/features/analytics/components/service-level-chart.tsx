/** Service level and abandon rate per bucket, as lines, with the target the service level is held to. */
import { memo, useId } from 'react';
import type { ServiceLevelBucket } from '../../../../contract/service-levels.js';
import { line, scales } from '../../../components/charts/chart-paths.js';
import { svgID } from '../../../components/charts/series-style.js';
import { TimeChart } from '../../../components/charts/time-chart.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';

export interface ServiceLevelChartProps {
  buckets: readonly ServiceLevelBucket[];
  bucketSeconds: number;
  from: number;
  to: number;
  timeZone: string;
  /** The service level aimed at, as a share: drawn across the chart. */
  target: number;
}

const percentOf = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);
const PERCENT_TICKS = [0, 25, 50, 75, 100];
const percentText = (value: number | null) => (value === null ? 'no calls' : `${value} %`);

export const ServiceLevelChart = memo(({ buckets, bucketSeconds, from, to, timeZone, target }: ServiceLevelChartProps) => {
  const id = useId();
  const axis = useTimeAxis(from, to, timeZone);
  const half = (bucketSeconds * 1000) / 2;
  // A bucket without a counted call has no level: the line breaks there rather than drop to 0.
  const points = buckets.map((b) => ({ at: Date.parse(b.start) + half, level: percentOf(b.serviceLevel), abandoned: percentOf(b.abandonRate) }));
  return (
    <TimeChart
      points={points}
      from={from}
      to={to}
      timeTicks={axis}
      yTop={100}
      yTicks={PERCENT_TICKS}
      yFormat={(value) => `${value} %`}
      margin={{ top: 8, right: 16 }}
      clipID={svgID(id, 'service-level-plot')}
      plot={(frame) => {
        const { y } = scales(frame);
        return (
          <>
            <line x1={frame.left} x2={frame.left + frame.width} y1={y(target * 100)} y2={y(target * 100)} stroke="var(--warn)" strokeDasharray="6 4" strokeWidth={1.5} />
            <path d={line(points, (p) => p.level, frame)} fill="none" stroke="var(--inbound)" strokeWidth={2.5} />
            <path d={line(points, (p) => p.abandoned, frame)} fill="none" stroke="var(--missed)" strokeWidth={2} strokeDasharray="4 3" />
          </>
        );
      }}
      readout={(p) => ({
        heading: formatDateTime(p.at - half, timeZone),
        rows: [
          { name: 'Service level', value: percentText(p.level) },
          { name: 'Abandon rate', value: percentText(p.abandoned) },
        ],
      })}
    />
  );
});
ServiceLevelChart.displayName = 'ServiceLevelChart';
