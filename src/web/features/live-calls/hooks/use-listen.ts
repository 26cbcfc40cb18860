/** Which calls a supervisor may listen to (answered and live, on a provider that can, with calls:control), and the one listened to. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { isLive } from '../../../lib/call-state.js';
import type { Workspace } from '../../../lib/workspace.js';
import { useCallControl, type CallControlState } from './use-call-control.js';

/** Before the answer there is no conversation to hear. */
const answeredAndLive = (call: CallRecord) => isLive(call) && call.answeredAt !== undefined;

export const useListen = (workspace: Workspace): CallControlState => useCallControl(workspace, 'canListen', answeredAndLive);
