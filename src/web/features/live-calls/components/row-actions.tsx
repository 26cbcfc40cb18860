/** A row's actions: call the remote party back through the click-to-call form, copy the number, and for a supervisor listen to the call or end it. */
import { useEffect, useId, useState } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { Button } from '../../../components/ui/button.js';
import { useAnnounce } from '../../../lib/announcer.js';
import type { CallBackRequest } from '../../../lib/call-back.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import type { CountryCode } from '../../../lib/phone-country.js';
import { CheckIcon, CopyIcon } from './call-icons.js';
import type { CallControlOffer } from '../hooks/use-call-control.js';

const COPIED_MS = 2000;

// aria-disabled rather than disabled: the buttons stay focusable, so keyboard and screen-reader users also hear why.
const unavailable = 'whitespace-nowrap aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-panel';

const useCopyNumber = (digits: string) => {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const announce = useAnnounce();
  useEffect(() => {
    if (status === 'idle') return;
    const timer = setTimeout(() => setStatus('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [status]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(digits);
      setStatus('copied');
      announce('Number copied');
    } catch {
      setStatus('failed');
      announce('Could not copy the number: the browser refused clipboard access');
    }
  };
  return { status, copy };
};

export const RowActions = ({
  call,
  country,
  onCallBack,
  listen,
  endCall,
}: {
  call: CallRecord;
  country: CountryCode;
  onCallBack: (request: CallBackRequest) => void;
  /** Present for a connection that may listen to calls. */
  listen?: CallControlOffer;
  /** Present for a connection that may end calls. */
  endCall?: CallControlOffer;
}) => {
  const withheld = call.remoteNumber === '';
  const number = formatPhoneNumber(call.remoteNumber, country);
  const reasonID = useId();
  const { status, copy } = useCopyNumber(call.remoteNumber);
  const party = withheld ? 'a withheld number' : (call.remoteName ?? number);
  const reason = withheld
    ? { 'aria-disabled': true, 'aria-describedby': reasonID, title: 'The caller withheld their number' }
    : {};

  return (
    <div className="flex items-center gap-1.5">
      <Button
        size="sm"
        className={unavailable}
        aria-label={withheld ? 'Call back' : `Call back ${number}`}
        onClick={() => {
          if (!withheld) onCallBack({ remoteNumber: call.remoteNumber, subscriberID: call.subscriberID });
        }}
        {...reason}
      >
        Call back
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className={unavailable}
        aria-label={withheld ? 'Copy number' : `Copy number ${number}`}
        onClick={() => {
          if (!withheld) void copy();
        }}
        {...reason}
      >
        {status === 'copied' ? <CheckIcon /> : <CopyIcon />}
        {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : 'Copy'}
      </Button>
      {listen?.applies(call) ? (
        <Button size="sm" className="whitespace-nowrap" aria-label={`Listen to the call with ${party}`} onClick={() => listen.ask(call)}>
          Listen
        </Button>
      ) : null}
      {endCall?.applies(call) ? (
        <Button size="sm" variant="danger" className="whitespace-nowrap" aria-label={`End call with ${party}`} onClick={() => endCall.ask(call)}>
          End call
        </Button>
      ) : null}
      {withheld ? (
        <span id={reasonID} className="sr-only">
          Number withheld: nothing to call back or copy.
        </span>
      ) : null}
    </div>
  );
};
