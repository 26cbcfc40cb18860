/**
 * A supervisor's action on one live call (ending it, listening to it): offered on the calls it
 * applies to, where the connection has calls:control and the call's provider can do it, and the
 * call it was asked for, with where that call lives.
 */
import { useCallback, useMemo, useState } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { ProviderChoice, Workspace } from '../../../lib/workspace.js';

export interface CallControlOffer {
  /** Whether the action is offered on this call. */
  applies: (call: CallRecord) => boolean;
  ask: (call: CallRecord) => void;
}

export interface CallControlState {
  /** Undefined when the connection may do it to no call on screen. */
  offer: CallControlOffer | undefined;
  /** The call it was asked for, with where it lives. */
  asking: { call: CallRecord; scope: ProviderScope } | undefined;
  close: () => void;
}

/** `applies` is a function of the call alone, defined at module level, so the offer keeps its identity. */
export const useCallControl = (
  workspace: Workspace,
  capability: keyof Pick<ProviderChoice, 'canEndCalls' | 'canListen'>,
  applies: (call: CallRecord) => boolean,
): CallControlState => {
  const [asking, setAsking] = useState<CallRecord | undefined>();
  const { accountID, applicationID, permissions, providers } = workspace;
  const able = useMemo(
    () => (permissions.includes('calls:control') ? new Set(providers.filter((p) => p[capability]).map((p) => p.id)) : new Set<string>()),
    [permissions, providers, capability],
  );
  const offer = useMemo(
    (): CallControlOffer | undefined =>
      able.size === 0 ? undefined : { applies: (call) => applies(call) && able.has(call.providerID), ask: setAsking },
    [able, applies],
  );
  // The same objects from render to render: what is open for the call (listening to it) starts once.
  const where = useMemo(
    () => asking && { call: asking, scope: { accountID, applicationID, providerID: asking.providerID } },
    [asking, accountID, applicationID],
  );
  const close = useCallback(() => setAsking(undefined), []);
  return { offer, asking: where, close };
};
