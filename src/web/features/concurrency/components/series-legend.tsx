/** The chart's legend: each series' swatch (the same fill and edge as its area) and name, and the peak's mark. */
import { useId } from 'react';
import {
  HatchPattern,
  SERIES,
  seriesFill,
  seriesLabel,
  seriesStroke,
  svgID,
  type Series,
} from '../../../components/charts/series-style.js';

const Swatch = ({ series, sizeClass }: { series: Series; sizeClass: string }) => {
  const hatchID = svgID(useId(), 'legend-hatch');
  const stroke = seriesStroke[series];
  return (
    <svg aria-hidden="true" viewBox="0 0 24 16" className={sizeClass}>
      <defs>
        <HatchPattern id={hatchID} />
      </defs>
      <rect
        x="1"
        y="1"
        width="22"
        height="14"
        {...seriesFill(series, hatchID)}
        stroke={stroke.color}
        strokeWidth="2"
        strokeDasharray={stroke.dash}
      />
    </svg>
  );
};

export const SeriesLegend = ({ size }: { size: 'normal' | 'wall' }) => {
  const wall = size === 'wall';
  return (
    <ul aria-label="Legend" className={`flex flex-wrap items-center gap-x-6 gap-y-1 ${wall ? 'text-[1.75rem]' : 'text-sm'}`}>
      {SERIES.map((series) => (
        <li key={series} className="flex items-center gap-2">
          <Swatch series={series} sizeClass={wall ? 'h-[1.5em] w-[2.25em]' : 'h-4 w-6'} />
          <span>{seriesLabel[series]}</span>
        </li>
      ))}
      <li className="flex items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 24 16" className={wall ? 'h-[1.5em] w-[2.25em]' : 'h-4 w-6'}>
          <line x1="0" y1="8" x2="24" y2="8" stroke="var(--ink)" strokeWidth="1.5" strokeDasharray="2 3" />
          <circle cx="12" cy="8" r="4.5" fill="var(--ink)" stroke="var(--panel)" strokeWidth="1.5" />
        </svg>
        <span>Peak</span>
      </li>
    </ul>
  );
};
