/** The table's columns, defined once: header, width, sort key and cell of each. */
import type { ReactNode } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { CallBackRequest } from '../../../lib/call-back.js';
import { callState, callStates } from '../../../lib/call-state.js';
import { callTimes } from '../../../lib/call-times.js';
import { formatClockTime, formatDateTime, formatPhoneNumber } from '../../../lib/format.js';
import type { CountryCode } from '../../../lib/phone-country.js';
import type { Thresholds } from '../../../lib/thresholds.js';
import { callDirection, directionLabel, subscriberName } from '../utils/call-fields.js';
import { callTiming } from '../utils/call-timing.js';
import type { SortDir } from '../utils/query-calls.js';
import { CallDuration } from './call-duration.js';
import { InboundIcon, OutboundIcon } from './call-icons.js';
import { CallStateBadge } from './call-state-badge.js';
import { RowActions } from './row-actions.js';
import type { CallControlOffer } from '../hooks/use-call-control.js';

export type ColumnID = 'state' | 'direction' | 'remote' | 'subscriber' | 'provider' | 'started' | 'duration' | 'actions';

/** What every cell may need beyond its call; one stable object, so memoised rows stay untouched. */
export interface CellContext {
  timeZone: string;
  /** Numbers without a country code are read as numbers of this country. */
  country: CountryCode;
  /** Whether the phone rules have loaded: rows re-render with written-out numbers when they do. */
  phoneRulesReady: boolean;
  thresholds: Thresholds;
  onCallBack: (request: CallBackRequest) => void;
  /** Offers "Listen" on the calls this connection may listen to; absent when it may listen to none. */
  listen?: CallControlOffer;
  /** Offers "End call" on the calls this connection may end; absent when it may end none. */
  endCall?: CallControlOffer;
}

export interface CallColumn {
  id: ColumnID;
  header: string;
  /** Pixels at the table's narrowest; wider containers share the extra space in proportion. */
  width: number;
  /** State, remote party and duration identify a call and carry its alert, so they cannot be hidden. */
  hideable: boolean;
  sort?: {
    key: (call: CallRecord, now: number) => string | number;
    /** The first click sorts this way: what a supervisor looks for first (e.g. the longest duration). */
    firstDir: SortDir;
  };
  Cell: (props: { call: CallRecord; context: CellContext }) => ReactNode;
}

// Long names are cut to keep rows one height; the title shows them whole on hover.
const titleOf = (node: ReactNode) => (typeof node === 'string' ? node : undefined);

const TwoLines = ({ first, second }: { first: ReactNode; second?: ReactNode }) => (
  <div className="flex min-w-0 flex-col leading-5">
    <span className="truncate" title={titleOf(first)}>
      {first}
    </span>
    {second ? (
      <span className="truncate text-xs text-muted" title={titleOf(second)}>
        {second}
      </span>
    ) : null}
  </div>
);

export const callColumns: readonly CallColumn[] = [
  {
    id: 'state',
    header: 'State',
    width: 112,
    hideable: false,
    sort: { key: (call) => callStates.indexOf(callState(call)), firstDir: 'asc' },
    Cell: ({ call }) => (
      <span className="flex flex-col items-start gap-0.5">
        <CallStateBadge state={callState(call)} />
        {/* Said once the call has ended: the provider's end may come a moment after who asked for it. */}
        {call.endedBy === undefined || call.endedAt === undefined ? null : (
          <span className="max-w-full truncate text-xs text-muted" title={`Ended by ${call.endedBy}`}>
            by {call.endedBy}
          </span>
        )}
      </span>
    ),
  },
  {
    id: 'direction',
    header: 'Direction',
    width: 116,
    hideable: true,
    sort: { key: callDirection, firstDir: 'asc' },
    Cell: ({ call }) => (
      <span
        className={`inline-flex items-center gap-1.5 text-sm font-medium ${call.isOutbound ? 'text-outbound' : 'text-inbound'}`}
      >
        {call.isOutbound ? <OutboundIcon /> : <InboundIcon />}
        {directionLabel[callDirection(call)]}
      </span>
    ),
  },
  {
    id: 'remote',
    header: 'Remote party',
    width: 160,
    hideable: false,
    sort: { key: (call) => call.remoteName ?? formatPhoneNumber(call.remoteNumber), firstDir: 'asc' },
    Cell: ({ call, context }) => (
      <TwoLines
        first={
          call.remoteNumber === '' ? (
            <span className="text-muted italic">Withheld</span>
          ) : (
            <span className="tabular">{formatPhoneNumber(call.remoteNumber, context.country)}</span>
          )
        }
        second={call.remoteName}
      />
    ),
  },
  {
    id: 'subscriber',
    header: 'Subscriber',
    width: 144,
    hideable: true,
    sort: { key: (call) => subscriberName(call) || call.subscriberID || '', firstDir: 'asc' },
    Cell: ({ call }) =>
      call.subscriberID === undefined && !subscriberName(call) ? (
        <span className="text-muted">Not assigned</span>
      ) : (
        <TwoLines
          first={subscriberName(call) || call.subscriberID}
          second={call.subscriberExtension ? `ext. ${call.subscriberExtension}` : undefined}
        />
      ),
  },
  {
    id: 'provider',
    header: 'Provider',
    width: 136,
    hideable: true,
    sort: { key: (call) => call.providerName, firstDir: 'asc' },
    Cell: ({ call }) => <TwoLines first={call.providerName} />,
  },
  {
    id: 'started',
    header: 'Started',
    width: 104,
    hideable: true,
    sort: { key: (call) => callTimes(call).startedAt, firstDir: 'asc' },
    Cell: ({ call, context }) => (
      <time dateTime={call.startedAt} title={formatDateTime(call.startedAt, context.timeZone)} className="tabular">
        {formatClockTime(call.startedAt, context.timeZone)}
      </time>
    ),
  },
  {
    id: 'duration',
    header: 'Duration',
    width: 120,
    hideable: false,
    sort: { key: (call, now) => callTiming(call, now).ms, firstDir: 'desc' },
    Cell: ({ call, context }) => <CallDuration call={call} thresholds={context.thresholds} />,
  },
  {
    id: 'actions',
    header: 'Actions',
    width: 204,
    hideable: true,
    Cell: ({ call, context }) => (
      <RowActions call={call} country={context.country} onCallBack={context.onCallBack} listen={context.listen} endCall={context.endCall} />
    ),
  },
];

export const columnByID = (id: ColumnID): CallColumn | undefined => callColumns.find((column) => column.id === id);
