/**
 * The supervisor's confirmation before a call is ended: who is on it (the agent and the caller),
 * how long it has run, and what the service said if it could not end it.
 */
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { useAnnounce } from '../../../lib/announcer.js';
import type { ApiError } from '../../../lib/api/api-error.js';
import { callState } from '../../../lib/call-state.js';
import { usePhoneCountry } from '../../../lib/phone-country.js';
import { useEndCallMutation } from '../api/end-call.js';
import { agentOf, remoteParty } from '../utils/call-fields.js';

/** What the service said, in words a supervisor acts on. */
const failureText = (error: ApiError, call: CallRecord): string => {
  switch (error.code) {
    case 'call_ended':
    case 'call_not_found':
      return 'This call has already ended.';
    case 'call_not_endable':
      return error.detail;
    case 'not_supported':
      return `${call.providerName} cannot end calls.`;
    case 'forbidden':
      return 'Your token may not end calls: it lacks the calls:control permission.';
    case 'provider_unavailable':
    case 'provider_timeout':
    case 'provider_error':
      return `${call.providerName} did not end the call: ${error.detail} Try again.`;
    default:
      return `The call was not ended: ${error.detail}`;
  }
};

export const EndCallDialog = ({ call, scope, onClose }: { call: CallRecord; scope: ProviderScope; onClose: () => void }) => {
  const country = usePhoneCountry();
  const announce = useAnnounce();
  const mutation = useEndCallMutation();
  const ringing = callState(call) === 'ringing';
  const confirm = () =>
    mutation.mutate(
      { scope, callID: call.callID },
      {
        onSuccess: () => {
          announce(`Call with ${remoteParty(call, country)} ended.`);
          onClose();
        },
      },
    );
  return (
    <ConfirmDialog
      title="End this call?"
      confirmLabel="End call"
      busyLabel="Ending…"
      cancelLabel="Keep call"
      busy={mutation.isPending}
      error={mutation.error ? failureText(mutation.error, call) : undefined}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <p>
        {ringing ? 'The call still rings' : 'Both phones hang up'}: {call.isOutbound ? 'the agent' : 'the caller'},{' '}
        <strong>{call.isOutbound ? agentOf(call) : remoteParty(call, country)}</strong>, and {call.isOutbound ? 'the number called' : 'the agent'},{' '}
        <strong>{call.isOutbound ? remoteParty(call, country) : agentOf(call)}</strong>.
      </p>
      <p className="mt-2 text-muted">The call list shows it ended by you, and the journal keeps who ended it and when.</p>
    </ConfirmDialog>
  );
};
