/**
 * The next hour's to-do list: callers who gave up and have not been reached yet, oldest first, with
 * how long ago, how many times they tried and were tried, and "Call back" into click-to-call.
 */
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { useCallBack } from '../../../lib/call-back.js';
import { useNow } from '../../../lib/clock.js';
import { formatAge, formatPhoneNumber } from '../../../lib/format.js';
import { usePhoneCountry } from '../../../lib/phone-country.js';
import { useServiceLevelSettings } from '../../../lib/service-level-settings.js';
import { useToCallBack } from '../hooks/use-to-call-back.js';
import type { ToCallBack } from '../utils/to-call-back.js';

/** Most shown at once; the count says how many more wait. */
const SHOWN = 8;

const times = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

// Reads the clock itself, inside the panel: the ages stand still while the panel is off screen.
const Entry = ({ entry }: { entry: ToCallBack }) => {
  const now = useNow();
  const callBack = useCallBack();
  const country = usePhoneCountry();
  const number = formatPhoneNumber(entry.remoteNumber, country);
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <div className="min-w-0">
        <p className="font-medium tabular">{number}</p>
        <p className="text-xs text-muted">
          {entry.remoteName ? <span className="block truncate" title={entry.remoteName}>{entry.remoteName}</span> : null}
          <span>
            {entry.missedCalls > 1 ? `Missed ${entry.missedCalls} times, first ` : 'Gave up '}
            {formatAge(now - entry.firstMissedAt)} ago · {entry.attempts === 0 ? 'not called back yet' : `called back ${times(entry.attempts, 'time')}, not reached`}
          </span>
        </p>
      </div>
      <Button
        size="sm"
        aria-label={`Call back ${number}`}
        onClick={() => callBack({ remoteNumber: entry.remoteNumber, ...(entry.subscriberID === undefined ? {} : { subscriberID: entry.subscriberID }) })}
      >
        Call back
      </Button>
    </li>
  );
};

export const ToCallBackPanel = ({ calls, scopes }: { calls: readonly CallRecord[]; scopes: readonly ProviderScope[] }) => {
  const [settings] = useServiceLevelSettings();
  const list = useToCallBack(scopes, calls, settings.shortAbandonSeconds);
  const count = list.status === 'ready' ? list.entries.length : undefined;
  return (
    <Panel title="To call back" actions={count === undefined ? undefined : <span className="text-sm font-semibold tabular">{count}</span>}>
      {list.status === 'pending' ? <p className="text-sm text-muted">Loading…</p> : null}
      {list.status === 'error' ? <p className="text-sm text-muted">The missed callers cannot be read right now; they show again by themselves.</p> : null}
      {list.status === 'ready' ? (
        <>
          <p className="text-xs text-muted">
            Callers of the last 24 hours who gave up (not within {settings.shortAbandonSeconds} s) and nobody has reached since, oldest first.
            {list.partial ? ' Some providers did not answer: there may be more.' : ''}
          </p>
          {list.entries.length === 0 ? (
            <p className="mt-2 text-sm">Nobody to call back.</p>
          ) : (
            <ul aria-label="Callers to call back" className="divide-y divide-line">
              {list.entries.slice(0, SHOWN).map((entry) => (
                <Entry key={entry.remoteNumber} entry={entry} />
              ))}
            </ul>
          )}
          {list.entries.length > SHOWN ? <p className="mt-1 text-xs text-muted">And {list.entries.length - SHOWN} more.</p> : null}
          {list.withheld > 0 ? <p className="mt-1 text-xs text-muted">{times(list.withheld, 'caller')} withheld their number: they cannot be called back.</p> : null}
        </>
      ) : null}
    </Panel>
  );
};
