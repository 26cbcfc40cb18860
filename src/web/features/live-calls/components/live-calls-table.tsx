/** The table of calls (the supervisor's live ones, an agent's of the day): filtered, searched and sorted from the URL, virtualised, exportable. */
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { useCallBack, type CallBackRequest } from '../../../lib/call-back.js';
import { clockNow } from '../../../lib/clock.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import { measurePollToCommit } from '../../../lib/perf-marks.js';
import { usePhoneCountry, type CountryCode } from '../../../lib/phone-country.js';
import { usePhoneRulesReady } from '../../../lib/phone-rules-loader.js';
import { useThresholds } from '../../../lib/thresholds.js';
import { useTableParams } from '../hooks/use-table-params.js';
import type { CallControlOffer } from '../hooks/use-call-control.js';
import { csvFileName, downloadCsv } from '../../../lib/csv.js';
import { callsToCsv } from '../utils/calls-csv.js';
import { filterCalls, hasFilters, sortCalls } from '../utils/query-calls.js';
import { callColumns, columnByID, type CellContext } from './call-columns.js';
import { TableToolbar } from './table-toolbar.js';
import { VirtualCallTable } from './virtual-call-table.js';

/** Pixels the actions column grows by when it offers "End call", and "Listen". */
const END_CALL_WIDTH = 84;
const LISTEN_WIDTH = 68;

const plural = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'call' : 'calls'}`;

/**
 * The call-back action for rows, stable across renders: useCallBack's function changes with every
 * URL change, and passing that down would re-render every row on each keystroke in the search box.
 */
const useStableCallBack = (country: CountryCode): ((request: CallBackRequest) => void) => {
  const callBack = useCallBack();
  const announce = useAnnounce();
  const latest = useRef(callBack);
  useEffect(() => {
    latest.current = callBack;
  }, [callBack]);
  return useCallback(
    (request: CallBackRequest) => {
      latest.current(request);
      announce(`${formatPhoneNumber(request.remoteNumber, country)} is ready to call in the click-to-call form`);
    },
    [announce, country],
  );
};

// A skeleton, not an empty table: "no calls" before the first answer would be a lie. The count line says "Loading".
const LoadingRows = () => (
  <div aria-hidden="true" className="flex flex-col gap-2 rounded-md border border-line p-3">
    {[0, 1, 2, 3, 4].map((row) => (
      <div key={row} className="h-9 animate-pulse rounded bg-raised" />
    ))}
  </div>
);

/** What an empty list means: the live view's has no call right now; an agent's desk lists the day's. */
export interface EmptyListText {
  title: string;
  detail: string;
}

const NO_LIVE_CALLS: EmptyListText = { title: 'No calls right now', detail: 'New calls appear here as soon as they start ringing.' };

const EmptyState = ({ total, empty, onClearFilters }: { total: number; empty: EmptyListText; onClearFilters: () => void }) => (
  <div className="flex flex-col items-center gap-2 rounded-md border border-dashed border-line px-4 py-10 text-center">
    {total === 0 ? (
      <>
        <p className="font-medium">{empty.title}</p>
        <p className="text-sm text-muted">{empty.detail}</p>
      </>
    ) : (
      <>
        <p className="font-medium">No calls match these filters</p>
        <p className="text-sm text-muted">All {plural(total)} are hidden by the search or filters.</p>
        <Button size="sm" onClick={onClearFilters}>
          Clear filters
        </Button>
      </>
    )}
  </div>
);

/** The call list's element ID, for a link or a choice elsewhere that brings it into view. */
export const CALL_LIST_ID = 'call-list';

export const LiveCallsTable = ({
  calls,
  timeZone,
  showProvider,
  loading,
  listen,
  endCall,
  title = 'Call list',
  empty = NO_LIVE_CALLS,
}: {
  calls: CallRecord[];
  timeZone: string;
  showProvider: boolean;
  loading: boolean;
  /** For a connection that may listen to calls: the row action. */
  listen?: CallControlOffer;
  /** For a connection that may end calls: the row action. */
  endCall?: CallControlOffer;
  title?: string;
  /** What the list says when there is no call at all. */
  empty?: EmptyListText;
}) => {
  const params = useTableParams();
  const [thresholds] = useThresholds();
  const country = usePhoneCountry();
  const phoneRulesReady = usePhoneRulesReady();
  const onCallBack = useStableCallBack(country);
  const searchInput = useRef<HTMLInputElement>(null);
  useLayoutEffect(measurePollToCommit, [calls]);

  // Typing stays responsive with thousands of calls: the list catches up with the search box.
  const search = useDeferredValue(params.filters.search);
  const filters = useMemo(() => ({ ...params.filters, search }), [params.filters, search]);
  // How numbers are read; the phone rules' arrival adds their national forms to what a search finds.
  const numberReading = useMemo(() => ({ country, phoneRulesReady }), [country, phoneRulesReady]);
  const filtered = useMemo(() => filterCalls(calls, filters, numberReading.country), [calls, filters, numberReading]);
  const sortKey = columnByID(params.sort.column)?.sort?.key;
  const rows = useMemo(() => {
    if (!sortKey) return filtered;
    // Durations are compared at this moment; rows re-sort when the calls change, not on every tick.
    const now = clockNow();
    return sortCalls(filtered, (call) => sortKey(call, now), params.sort.dir);
  }, [filtered, sortKey, params.sort.dir]);

  const available = useMemo(
    () =>
      callColumns
        .filter((column) => showProvider || column.id !== 'provider')
        // "Listen" and "End call" need room beside "Call back" and "Copy".
        .map((column) =>
          column.id === 'actions' ? { ...column, width: column.width + (listen ? LISTEN_WIDTH : 0) + (endCall ? END_CALL_WIDTH : 0) } : column,
        ),
    [showProvider, listen, endCall],
  );
  const columns = useMemo(() => available.filter((column) => !params.hidden.includes(column.id)), [available, params.hidden]);
  const context = useMemo(
    (): CellContext => ({ timeZone, country, phoneRulesReady, thresholds, onCallBack, ...(listen ? { listen } : {}), ...(endCall ? { endCall } : {}) }),
    [timeZone, country, phoneRulesReady, thresholds, onCallBack, listen, endCall],
  );

  const clearFilters = () => {
    params.clearFilters();
    if (searchInput.current) searchInput.current.value = '';
  };
  const exportRows = () => {
    const now = clockNow();
    downloadCsv(callsToCsv(rows, now), csvFileName('calls', now));
  };

  return (
    <Panel title={title} id={CALL_LIST_ID}>
      <div className="flex flex-col gap-3">
        <TableToolbar
          calls={calls}
          params={params}
          columns={available}
          searchRef={searchInput}
          onClearFilters={clearFilters}
          onExport={exportRows}
          exportCount={loading ? 0 : rows.length}
          summary={
            <p className="text-sm text-muted tabular">
              {loading
                ? 'Loading calls…'
                : hasFilters(params.filters)
                  ? `Showing ${rows.length.toLocaleString('en-US')} of ${plural(calls.length)}`
                  : `Showing all ${plural(calls.length)}`}
            </p>
          }
        />
        {loading ? (
          <LoadingRows />
        ) : rows.length === 0 ? (
          <EmptyState total={calls.length} empty={empty} onClearFilters={clearFilters} />
        ) : (
          <VirtualCallTable rows={rows} columns={columns} context={context} sort={params.sort} onSort={params.setSort} />
        )}
      </div>
    </Panel>
  );
};
