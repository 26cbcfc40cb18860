/** Concurrent live calls over the last 15 or 60 minutes, inbound and outbound stacked: the journal's minutes, then one sample per update, kept across reloads. */
import { Suspense, useId, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { PartBoundary } from '../../../components/part-boundary.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { useQueueScope } from '../../../lib/queue-scope.js';
import { useNow } from '../../../lib/clock.js';
import { lazyComponent } from '../../../lib/lazy-component.js';
import { RETRY_LOAD_MS } from '../../../lib/load-failure.js';
import { samplesKeyForScopes, useConcurrencySamples } from '../../../lib/concurrency-samples.js';
import { useJournalSeed } from '../hooks/use-journal-seed.js';
import { useRangeParam } from '../hooks/use-range-param.js';
import { useRecordConcurrency } from '../hooks/use-record-concurrency.js';
import { concurrencyView, describeConcurrency, type RangeMinutes } from '../utils/chart-series.js';
import type { ConcurrencyAreaChart as AreaChart } from './concurrency-area-chart.js';
import { ConcurrencyTable } from './concurrency-table.js';
import { RangeToggle } from './range-toggle.js';
import { SeriesLegend } from './series-legend.js';

// The drawing loads beside, not before, the first render of live data.
const { Component: ConcurrencyAreaChart } = lazyComponent<ComponentProps<typeof AreaChart>>(
  async () => (await import('./concurrency-area-chart.js')).ConcurrencyAreaChart,
);

type ChartSize = 'normal' | 'wall';

/** Minutes between time labels, on the zone's clock, at the least; fewer, larger ones on a wall screen. */
const tickStepMinutes: Record<ChartSize, Record<RangeMinutes, number>> = {
  normal: { 15: 2, 60: 10 },
  wall: { 15: 3, 60: 15 },
};

/**
 * The drawing advances in steps of this: its time axis keeps moving while no poll arrives (a dead
 * feed shows as a widening hole, never as a frozen "now"), and a step brings the samples taken
 * since. recharts draws a chart whole at every change (about 25 ms on a desktop, four times that
 * on a TV stick's CPU): once a step, not at every sample. The sentence above it and its table are
 * live.
 */
const AXIS_STEP_MS = 5000;

/** What moves with the clock: the window's ends, the drawing, the summary and the data table. */
const ConcurrencyView = ({
  samples,
  range,
  receivedAt,
  timeZone,
  size,
  children,
}: {
  samples: ReturnType<typeof useConcurrencySamples>;
  range: RangeMinutes;
  receivedAt: number;
  timeZone: string;
  size: ChartSize;
  /** Lays out the summary, the drawing and the rows of the view, once they are known. */
  children: (parts: { summary: string; plot: ReactNode; inRange: ReturnType<typeof concurrencyView>['inRange'] }) => ReactNode;
}) => {
  const now = useNow();
  const to = Math.max(samples[samples.length - 1]?.at ?? 0, now - (now % AXIS_STEP_MS));
  const from = to - range * 60_000;
  const view = useMemo(() => concurrencyView(samples, from, to), [samples, from, to]);
  const drawnTo = now - (now % AXIS_STEP_MS);
  const drawnFrom = drawnTo - range * 60_000;
  const drawing = useMemo(() => concurrencyView(samples, drawnFrom, drawnTo), [samples, drawnFrom, drawnTo]);
  const tickStep = tickStepMinutes[size][range];
  const summary = describeConcurrency(view, timeZone);
  const wall = size === 'wall';

  const room = wall ? 'min-h-0 flex-1' : 'h-64';
  const plot = (
    // Outside the drawing: a picture's text is not read out, and a failure to load it must be.
    <PartBoundary what="The chart" className={`${room} content-center p-4`} retryEveryMs={RETRY_LOAD_MS}>
      {/* On a wall, the drawing is clipped to its room in height: it is redrawn a frame after that room
          shrinks, and a screen that cannot scroll must not grow a scroll bar meanwhile. */}
      <figure
        aria-label={`Chart of concurrent live calls, last ${range} minutes. ${summary}`}
        className={`relative ${room} ${wall ? 'overflow-y-clip' : ''}`}
      >
        <div className="absolute inset-0">
          {/* The chart's code is fetched once live data is on screen: the first screen needs the calls first. */}
          {receivedAt > 0 ? (
            <Suspense fallback={<p className="p-4 text-sm text-muted">Loading chart…</p>}>
              <ConcurrencyAreaChart
                points={drawing.points}
                from={drawnFrom}
                to={drawnTo}
                minTickStepMinutes={tickStep}
                peak={drawing.peak}
                timeZone={timeZone}
                size={size}
              />
            </Suspense>
          ) : (
            <p className="p-4 text-sm text-muted">Waiting for the first update…</p>
          )}
        </div>
      </figure>
    </PartBoundary>
  );
  return children({ summary, plot, inRange: view.inRange });
};

export const LiveConcurrencyChart = ({
  calls,
  receivedAt,
  scopes,
  timeZone,
  size = 'normal',
}: {
  calls: CallRecord[];
  receivedAt: number;
  /** The providers shown; their samples are kept under one series, which the journal seeds when the page opens. */
  scopes: readonly ProviderScope[];
  timeZone: string;
  size?: ChartSize;
}) => {
  const storageKey = samplesKeyForScopes(scopes, useQueueScope()?.param);
  useJournalSeed(scopes, storageKey, timeZone, receivedAt > 0);
  useRecordConcurrency(storageKey, calls, receivedAt);
  const samples = useConcurrencySamples(storageKey);
  const [range, setRange] = useRangeParam();
  const [showTable, setShowTable] = useState(false);
  const headingID = useId();
  const tableID = useId();
  const viewProps = { samples, range, receivedAt, timeZone, size };

  // On a wall the tiles beside the chart already show now and today's peak, and the chart labels its own peak.
  if (size === 'wall')
    return (
      <section
        aria-labelledby={headingID}
        className="flex min-h-0 flex-1 flex-col gap-2 rounded-lg border border-line bg-panel px-6 py-4"
      >
        <div className="flex flex-wrap items-center gap-x-10 gap-y-2">
          <h2 id={headingID} className="text-[2rem] leading-tight font-semibold">
            Concurrent live calls <span className="font-normal text-muted">· last {range} min</span>
          </h2>
          <SeriesLegend size="wall" />
        </div>
        <ConcurrencyView {...viewProps}>{({ plot }) => plot}</ConcurrencyView>
      </section>
    );

  // Inside the panel, so the drawing follows the clock only while the panel is on screen.
  return (
    <Panel title="Concurrent live calls" actions={<RangeToggle range={range} onRangeChange={setRange} />}>
      <ConcurrencyView {...viewProps}>
        {({ summary, plot, inRange }) => (
          <div className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
              <p className="text-sm font-semibold tabular">{summary}</p>
              <SeriesLegend size="normal" />
            </div>
            {plot}
            <div className="flex flex-col items-start gap-2">
              <Button
                size="sm"
                variant="ghost"
                aria-expanded={showTable}
                aria-controls={tableID}
                onClick={() => setShowTable(!showTable)}
              >
                {showTable ? 'Hide data table' : 'Show data table'}
              </Button>
              {showTable ? <ConcurrencyTable id={tableID} samples={inRange} rangeMinutes={range} timeZone={timeZone} /> : null}
            </div>
          </div>
        )}
      </ConcurrencyView>
    </Panel>
  );
};
