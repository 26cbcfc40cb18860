/**
 * Which calls this token may end (it has calls:control and the call's provider can end calls), and
 * the call a supervisor asked to end, awaiting their confirmation.
 */
import { useMemo, useState } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { isLive } from '../../../lib/call-state.js';
import type { Workspace } from '../../../lib/workspace.js';

export interface EndCallOffer {
  /** Live, on a provider that can end calls. */
  canEnd: (call: CallRecord) => boolean;
  /** Asks the supervisor to confirm ending it. */
  ask: (call: CallRecord) => void;
}

export interface EndCallState {
  /** Undefined when the token may end no call on screen. */
  offer: EndCallOffer | undefined;
  /** The call waiting for confirmation, with where it lives. */
  asking: { call: CallRecord; scope: ProviderScope } | undefined;
  close: () => void;
}

export const useEndCall = (workspace: Workspace): EndCallState => {
  const [asking, setAsking] = useState<CallRecord | undefined>();
  const { accountID, applicationID, permissions, providers } = workspace;
  const endable = useMemo(
    () => (permissions.includes('calls:control') ? new Set(providers.filter((p) => p.canEndCalls).map((p) => p.id)) : new Set<string>()),
    [permissions, providers],
  );
  const offer = useMemo(
    (): EndCallOffer | undefined =>
      endable.size === 0 ? undefined : { canEnd: (call) => isLive(call) && endable.has(call.providerID), ask: setAsking },
    [endable],
  );
  return {
    offer,
    asking: asking && { call: asking, scope: { accountID, applicationID, providerID: asking.providerID } },
    close: () => setAsking(undefined),
  };
};
