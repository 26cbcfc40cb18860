/** Which calls this connection may end (live, on a provider that can end calls, with calls:control), and the one awaiting confirmation. */
import { isLive } from '../../../lib/call-state.js';
import type { Workspace } from '../../../lib/workspace.js';
import { useCallControl, type CallControlState } from './use-call-control.js';

export const useEndCall = (workspace: Workspace): CallControlState => useCallControl(workspace, 'canEndCalls', isLive);
