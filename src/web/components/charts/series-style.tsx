/**
 * How the two series look, shared by the chart and its legend: inbound solid with a solid
 * edge, outbound hatched with a dashed edge, so they differ without colour.
 */
export type Series = 'inbound' | 'outbound';
/** The series in their drawing order: outbound is stacked on inbound. */
export const SERIES: readonly Series[] = ['inbound', 'outbound'];

export const seriesLabel: Record<Series, string> = { inbound: 'Inbound', outbound: 'Outbound' };

export const seriesStroke: Record<Series, { color: string; dash: string | undefined }> = {
  inbound: { color: 'var(--inbound)', dash: undefined },
  outbound: { color: 'var(--outbound)', dash: '6 3' },
};

/** SVG ids may not hold the characters React's ids use. */
export const svgID = (reactID: string, name: string): string => `${name}-${reactID.replace(/[^a-zA-Z0-9_-]/g, '')}`;

/** The outbound hatching; place inside an SVG's <defs>. */
export const HatchPattern = ({ id }: { id: string }) => (
  <pattern id={id} patternUnits="userSpaceOnUse" width="8" height="8" patternTransform="rotate(45)">
    <rect width="8" height="8" fill="var(--outbound)" fillOpacity={0.12} />
    <line x1="0" y1="0" x2="0" y2="8" stroke="var(--outbound)" strokeWidth="3.5" />
  </pattern>
);

/** The fill of a series: `hatchID` names a HatchPattern in the same document. */
export const seriesFill = (series: Series, hatchID: string): { fill: string; fillOpacity: number } =>
  series === 'inbound' ? { fill: 'var(--inbound)', fillOpacity: 0.35 } : { fill: `url(#${hatchID})`, fillOpacity: 1 };

/**
 * The props of one direction's area in a stacked chart (outbound on inbound), as steps: each
 * count holds until the next sample. One path per series, whatever the number of points; never
 * animated, the live chart is drawn again at every update.
 */
export const stackedSeriesArea = (series: Series, dataKey: string, hatchID: string, strokeWidth: number) => ({
  type: 'stepAfter' as const,
  dataKey,
  name: seriesLabel[series],
  stackId: 'directions',
  stroke: seriesStroke[series].color,
  strokeDasharray: seriesStroke[series].dash,
  strokeWidth,
  ...seriesFill(series, hatchID),
  isAnimationActive: false,
  dot: false,
  activeDot: false,
});
