/**
 * The browser phone's call: who rings (with what the journal knows of them) and Answer or Decline;
 * a click-to-call on its way; during the call its timer, Mute, Hold, the keypad and Hang up; and,
 * a moment after, why it ended. Each step is said once to screen readers.
 */
import { useEffect, useState } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import { Button } from '../../../components/ui/button.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { useNow } from '../../../lib/clock.js';
import { formatDuration, formatPhoneNumber } from '../../../lib/format.js';
import { usePhoneCountry } from '../../../lib/phone-country.js';
import type { Phone } from '../phone/phone.js';
import type { PhoneCall } from '../phone/phone-state.js';
import { CallerHistory } from './caller-history.js';
import { DtmfKeypad } from './dtmf-keypad.js';

const headline = (call: PhoneCall, number: string): string => {
  const who = call.remoteName ? `${call.remoteName} (${number})` : number;
  switch (call.phase) {
    case 'ringing':
      return call.kind === 'click-to-call' ? `Your call to ${number}: answer to place it` : `Incoming call from ${who}`;
    case 'answering':
      return `Connecting to ${who}…`;
    case 'calling':
      return `Calling ${number}…`;
    case 'talking':
      return `On a call with ${who}`;
    case 'ended':
      return `${call.ending ?? 'Call ended'} · ${who}`;
  }
};

const CallTimer = ({ since }: { since: number }) => {
  const now = useNow();
  return (
    <p className="text-sm text-muted">
      Call time <span className="font-semibold text-ink tabular">{formatDuration(now - since)}</span>
    </p>
  );
};

const InCall = ({ call, phone }: { call: PhoneCall; phone: Phone }) => {
  const [keypad, setKeypad] = useState(false);
  const notes = [call.muted ? 'Your microphone is muted.' : '', call.held ? 'The call is on hold.' : ''].filter(Boolean).join(' ');
  return (
    <>
      {call.answeredAt === undefined ? null : <CallTimer since={call.answeredAt} />}
      {notes ? <p className="text-sm font-medium text-warn">{notes}</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => phone.setMuted(!call.muted)}>
          {call.muted ? 'Unmute' : 'Mute'}
        </Button>
        <Button size="sm" onClick={() => phone.setHeld(!call.held)}>
          {call.held ? 'Resume' : 'Hold'}
        </Button>
        <Button size="sm" aria-expanded={keypad} onClick={() => setKeypad(!keypad)}>
          Keypad
        </Button>
        <Button size="sm" variant="danger" onClick={() => phone.hangUp()}>
          Hang up
        </Button>
      </div>
      {keypad ? <DtmfKeypad onTone={(tone) => phone.sendTone(tone)} /> : null}
    </>
  );
};

export const PhoneCallView = ({ call, phone, scope }: { call: PhoneCall; phone: Phone; scope: ProviderScope }) => {
  const country = usePhoneCountry();
  const announce = useAnnounce();
  const text = headline(call, formatPhoneNumber(call.remoteNumber, country));
  useEffect(() => announce(text), [announce, text]);
  const caller = call.kind === 'incoming' && call.remoteNumber !== '' && call.phase !== 'ended';

  return (
    <div role="group" aria-label="Call" className="flex flex-col gap-2 rounded-md border border-line p-2">
      <h3 className={`font-semibold ${call.phase === 'ringing' ? 'text-base' : 'text-sm'}`}>{text}</h3>
      {caller ? <CallerHistory scope={scope} remoteNumber={call.remoteNumber} /> : null}
      {call.phase === 'ringing' ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="primary" onClick={() => phone.answer()}>
            Answer
          </Button>
          <Button variant="danger" onClick={() => phone.decline()}>
            Decline
          </Button>
        </div>
      ) : null}
      {call.phase === 'answering' || call.phase === 'calling' ? (
        <div>
          <Button size="sm" variant="danger" onClick={() => phone.hangUp()}>
            Hang up
          </Button>
        </div>
      ) : null}
      {call.phase === 'talking' ? <InCall call={call} phone={phone} /> : null}
    </div>
  );
};
