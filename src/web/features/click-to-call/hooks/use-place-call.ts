/**
 * One click, one call: a synchronous in-flight guard, and one Idempotency-Key per intended call,
 * kept for a retry after a failure that may hide a placed call, replaced for anything else.
 */
import { useCallback, useRef, useState } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { notePlacedCall } from '../../../lib/placed-calls.js';
import { useMakeCallMutation } from '../api/make-call.js';

export interface CallIntent {
  scope: ProviderScope;
  providerName: string;
  subscriberID: string;
  /** First name, or the subscriber ID when the service lists no subscribers. */
  callerName: string;
  digits: string;
}

/** A call the provider accepted (204), with the browser's times around the request. */
export interface PlacedCall extends CallIntent {
  idempotencyKey: string;
  sentAt: number;
  acceptedAt: number;
}

/**
 * A network failure or a 5xx may hide a call the service did place (the answer was lost):
 * retrying under the same key replays that call instead of ringing the phone twice. A provider
 * timeout is the exception: the service itself replays it to the same key, so after checking
 * the live list, placing the call again is a deliberate new attempt under a new key.
 */
export const retryKeepsKey = (error: ApiError): boolean =>
  error.code === 'network_unreachable' || ((error.status ?? 0) >= 500 && error.code !== 'provider_timeout');

const fingerprint = ({ scope, subscriberID, digits }: CallIntent) =>
  JSON.stringify([scope.accountID, scope.applicationID, scope.providerID, subscriberID, digits]);

export const usePlaceCall = () => {
  const mutation = useMakeCallMutation();
  const { mutateAsync, reset } = mutation;
  // Refs, not state: a second click can arrive before React re-renders the disabled button.
  const inFlight = useRef(false);
  const retryable = useRef<{ fingerprint: string; key: string } | undefined>(undefined);
  const [placed, setPlaced] = useState<PlacedCall>();

  /** Resolves true once the provider accepted the call; false when refused, failed or already in flight. */
  const place = useCallback(
    async (intent: CallIntent): Promise<boolean> => {
      if (inFlight.current) return false;
      inFlight.current = true;
      const print = fingerprint(intent);
      const idempotencyKey = retryable.current?.fingerprint === print ? retryable.current.key : crypto.randomUUID();
      retryable.current = undefined;
      setPlaced(undefined);
      const sentAt = Date.now();
      notePlacedCall(intent.digits, sentAt);
      try {
        await mutateAsync({
          scope: intent.scope,
          request: { providerSubscriberID: intent.subscriberID, remoteNumber: intent.digits },
          idempotencyKey,
        });
        setPlaced({ ...intent, idempotencyKey, sentAt, acceptedAt: Date.now() });
        return true;
      } catch (error) {
        if (error instanceof ApiError && retryKeepsKey(error)) retryable.current = { fingerprint: print, key: idempotencyKey };
        return false;
      } finally {
        inFlight.current = false;
      }
    },
    [mutateAsync],
  );

  return { place, placed, pending: mutation.isPending, error: mutation.error ?? undefined, dismissError: reset };
};
