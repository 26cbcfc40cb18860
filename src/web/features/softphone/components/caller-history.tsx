/**
 * What the journal knows of a caller, beside their ringing call: a missed call of theirs that nobody
 * has called back yet, and their latest calls of the week.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { MissedCallsResponse } from '../../../../contract/service-levels.js';
import { useApi } from '../../../lib/api/api-context.js';
import { missedCallsQueryOptions } from '../../../lib/api/service-levels-query.js';
import { formatDateTime, formatDuration } from '../../../lib/format.js';
import { useServiceLevelSettings } from '../../../lib/service-level-settings.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import { callerCallsQueryOptions } from '../api/caller-calls-query.js';

/** As the callers to call back count them: the last day. */
const MISSED_WINDOW_MS = 24 * 3_600_000;
const SHOWN_CALLS = 3;

const outcome = (call: CallRecord): string => {
  if (call.isMissedCall) return 'missed';
  if (call.answeredAt === undefined) return call.endedAt === undefined ? 'ringing now' : 'not answered';
  if (call.endedAt === undefined) return 'in progress';
  return `talked ${formatDuration(Date.parse(call.endedAt) - Date.parse(call.answeredAt))}`;
};

const agentOf = (call: CallRecord): string => {
  const name = [call.subscriberFirstName, call.subscriberLastName].filter(Boolean).join(' ');
  return name === '' ? '' : ` · ${name}`;
};

export const CallerHistory = ({ scope, remoteNumber }: { scope: ProviderScope; remoteNumber: string }) => {
  const client = useApi();
  const timeZone = useTimeZone();
  const [{ shortAbandonSeconds }] = useServiceLevelSettings();
  const latest = useCallback(
    (calls: CallRecord[]) =>
      calls
        .filter((call) => call.remoteNumber === remoteNumber)
        .sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt))
        .slice(0, SHOWN_CALLS),
    [remoteNumber],
  );
  const calls = useQuery({ ...callerCallsQueryOptions(client, scope), select: latest });
  const notCalledBack = useCallback(
    (data: MissedCallsResponse) => data.missedCalls.find((call) => call.remoteNumber === remoteNumber && call.calledBackAt === undefined && call.reachedAt === undefined),
    [remoteNumber],
  );
  const missed = useQuery({ ...missedCallsQueryOptions(client, scope, MISSED_WINDOW_MS, shortAbandonSeconds, true), select: notCalledBack });

  return (
    <div className="flex flex-col gap-1 rounded-md bg-raised px-2 py-1.5 text-xs">
      {missed.data ? (
        <p className="font-medium text-warn">Gave up waiting at {formatDateTime(missed.data.startedAt, timeZone)}: not called back yet.</p>
      ) : null}
      {calls.isPending ? <p className="text-muted">Looking up their calls…</p> : null}
      {calls.isError ? <p className="text-muted">Their earlier calls cannot be read right now.</p> : null}
      {calls.data?.length === 0 ? <p className="text-muted">No calls with this number in the last 7 days.</p> : null}
      {calls.data && calls.data.length > 0 ? (
        <>
          <p className="text-muted">Their latest calls:</p>
          <ul aria-label="Their latest calls">
            {calls.data.map((call) => (
              <li key={call.callID}>
                {formatDateTime(call.startedAt, timeZone)} · {call.isOutbound ? 'outbound' : 'inbound'} · {outcome(call)}
                {agentOf(call)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
};
