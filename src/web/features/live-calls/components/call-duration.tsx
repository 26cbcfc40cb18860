/**
 * The duration cell: the only part of the table that reads the ticking clock, so a second passing
 * re-renders these small cells and not the rows around them.
 */
import type { CallRecord } from '../../../../contract/call-record.js';
import { useNow } from '../../../lib/clock.js';
import { formatDuration } from '../../../lib/format.js';
import { callAlert, type Thresholds } from '../../../lib/thresholds.js';
import { callTiming, type CallTiming } from '../utils/call-timing.js';
import { ClockIcon, WarningIcon } from './call-icons.js';

type Alert = ReturnType<typeof callAlert>;

const phaseLabel: Record<CallTiming['phase'], string> = { ring: 'ringing', talk: 'talking', total: 'total' };

const AlertMarker = ({ alert }: { alert: NonNullable<Alert> }) =>
  alert === 'long-ring' ? (
    <span className="inline-flex items-center gap-1 text-xs font-semibold text-warn">
      <WarningIcon />
      Long ring
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-xs font-semibold text-danger">
      <ClockIcon />
      Long call
    </span>
  );

// The row tints itself from `data-alert` through CSS :has(), so it needs no clock of its own.
const DurationText = ({ timing, alert }: { timing: CallTiming; alert?: Alert }) => (
  <div data-alert={alert} className="flex flex-col leading-5">
    <span>
      <span className="tabular font-medium">{formatDuration(timing.ms)}</span>{' '}
      <span className="text-xs text-muted">{phaseLabel[timing.phase]}</span>
    </span>
    {alert ? <AlertMarker alert={alert} /> : null}
  </div>
);

const LiveDuration = ({ call, thresholds }: { call: CallRecord; thresholds: Thresholds }) => {
  const now = useNow();
  return <DurationText timing={callTiming(call, now)} alert={callAlert(call, now, thresholds)} />;
};

export const CallDuration = ({ call, thresholds }: { call: CallRecord; thresholds: Thresholds }) =>
  call.endedAt === undefined ? (
    <LiveDuration call={call} thresholds={thresholds} />
  ) : (
    <DurationText timing={callTiming(call, 0)} />
  );
