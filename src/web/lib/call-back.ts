/**
 * "Call back" from anywhere: the click-to-call form reads its prefill from the URL
 * (`dial` = digits to call, `agent` = providerSubscriberID), so a link or a row action can open it.
 */
import { useCallback } from 'react';
import { useLocation, useSearchParams } from 'react-router';

export const DIAL_PARAM = 'dial';
export const AGENT_PARAM = 'agent';

export interface CallBackRequest {
  remoteNumber: string;
  subscriberID?: string;
  /** When the request was made, so asking twice for the same number still refills the form. */
  requestedAt?: number;
}

export const useCallBack = (): ((request: Omit<CallBackRequest, 'requestedAt'>) => void) => {
  const [, setParams] = useSearchParams();
  return useCallback(
    ({ remoteNumber, subscriberID }: Omit<CallBackRequest, 'requestedAt'>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(DIAL_PARAM, remoteNumber);
          if (subscriberID) next.set(AGENT_PARAM, subscriberID);
          else next.delete(AGENT_PARAM);
          return next;
        },
        { state: { callBackRequestedAt: Date.now() } },
      ),
    [setParams],
  );
};

/** The prefill currently requested, if any. */
export const useCallBackRequest = (): CallBackRequest | undefined => {
  const [params] = useSearchParams();
  const state = useLocation().state as { callBackRequestedAt?: number } | null;
  const remoteNumber = params.get(DIAL_PARAM);
  if (!remoteNumber) return undefined;
  return { remoteNumber, subscriberID: params.get(AGENT_PARAM) ?? undefined, requestedAt: state?.callBackRequestedAt };
};
