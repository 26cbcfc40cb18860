/** Above the table: search and filters, then the count line beside column choice, thresholds and CSV export. */
import { Suspense, useMemo, type ReactNode, type RefObject } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { Button } from '../../../components/ui/button.js';
import { SearchInput } from '../../../components/ui/search-input.js';
import { callState, callStateLabel, callStates } from '../../../lib/call-state.js';
import { lazyComponent } from '../../../lib/lazy-component.js';
import type { TableParams } from '../hooks/use-table-params.js';
import { callDirection, directionLabel, directions } from '../utils/call-fields.js';
import { countBy, hasFilters } from '../utils/query-calls.js';
import type { CallColumn } from './call-columns.js';
import { InboundIcon, OutboundIcon } from './call-icons.js';
import { ColumnVisibility } from './column-visibility.js';
import { FacetedFilter } from './faceted-filter.js';
import { SubscriberFilter } from './subscriber-filter.js';
import { ToolbarDisclosure } from './toolbar-disclosure.js';
import { PartBoundary } from '../../../components/part-boundary.js';

/** The settings forms are not needed before the live data is on screen: the live view loads them once its first data is there. */
const { Component: ThresholdSettings, preload: preloadThresholdSettings } = lazyComponent(
  async () => (await import('./threshold-settings.js')).ThresholdSettings,
);
export { preloadThresholdSettings };

const stateOptions = callStates.map((state) => ({ value: state, label: callStateLabel[state] }));
const directionOptions = directions.map((direction) => ({
  value: direction,
  label: directionLabel[direction],
  icon: direction === 'inbound' ? <InboundIcon /> : <OutboundIcon />,
}));

const controlClass =
  'rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink focus-visible:outline-2 focus-visible:outline-accent';

export const TableToolbar = ({
  calls,
  params,
  columns,
  searchRef,
  onClearFilters,
  onExport,
  exportCount,
  summary,
}: {
  calls: readonly CallRecord[];
  params: TableParams;
  /** The columns this view can show, for the column chooser. */
  columns: readonly CallColumn[];
  /** The search box, which the table empties when it clears the filters. */
  searchRef: RefObject<HTMLInputElement | null>;
  onClearFilters: () => void;
  onExport: () => void;
  exportCount: number;
  /** The count line, kept on the row of view actions so the filters get a row to themselves. */
  summary: ReactNode;
}) => {
  const { filters } = params;
  const stateCounts = useMemo(() => countBy(calls, callState), [calls]);
  const directionCounts = useMemo(() => countBy(calls, callDirection), [calls]);

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {/* Uncontrolled: the router applies URL changes in a transition, and a box bound to the URL would drop keystrokes. */}
        <SearchInput
          ref={searchRef}
          aria-label="Search calls"
          placeholder="Number, name, extension, call ID"
          defaultValue={filters.search}
          onSearch={params.setSearch}
          className={`${controlClass} w-72 max-w-full`}
        />
        <FacetedFilter
          label="State"
          options={stateOptions}
          selected={filters.states}
          counts={stateCounts}
          onChange={params.setStates}
        />
        <FacetedFilter
          label="Direction"
          options={directionOptions}
          selected={filters.directions}
          counts={directionCounts}
          onChange={params.setDirections}
        />
        <SubscriberFilter calls={calls} selected={filters.subscriber} onChange={params.setSubscriber} />
        {hasFilters(filters) ? (
          <Button size="sm" variant="ghost" onClick={onClearFilters}>
            Clear filters
          </Button>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {summary}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <ColumnVisibility columns={columns} hidden={params.hidden} onChange={params.setHidden} />
          <ToolbarDisclosure label="Thresholds" align="end">
            <PartBoundary what="The threshold settings">
              <Suspense fallback={<p className="text-sm text-muted">Loading…</p>}>
                <ThresholdSettings />
              </Suspense>
            </PartBoundary>
          </ToolbarDisclosure>
          <Button size="sm" onClick={onExport} disabled={exportCount === 0}>
            Export CSV
          </Button>
        </div>
      </div>
    </div>
  );
};
