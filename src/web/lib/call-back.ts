/**
 * "Call back" from anywhere: the click-to-call form reads its prefill from the URL
 * (`dial` = digits to call, `agent` = providerSubscriberID), so a link or a row action can open it.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export const DIAL_PARAM = 'dial';
export const AGENT_PARAM = 'agent';

export interface CallBackRequest {
  remoteNumber: string;
  subscriberID?: string;
}

export const useCallBack = (): ((request: CallBackRequest) => void) => {
  const [, setParams] = useSearchParams();
  return useCallback(
    ({ remoteNumber, subscriberID }: CallBackRequest) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(DIAL_PARAM, remoteNumber);
        if (subscriberID) next.set(AGENT_PARAM, subscriberID);
        else next.delete(AGENT_PARAM);
        return next;
      }),
    [setParams],
  );
};

/** The prefill currently requested, if any. */
export const useCallBackRequest = (): CallBackRequest | undefined => {
  const [params] = useSearchParams();
  const remoteNumber = params.get(DIAL_PARAM);
  if (!remoteNumber) return undefined;
  return { remoteNumber, subscriberID: params.get(AGENT_PARAM) ?? undefined };
};
