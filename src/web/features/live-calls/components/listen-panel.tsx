/**
 * A supervisor listening silently to a call: who is on it, where listening stands in words, and
 * Stop. It stops by itself when the call ends (it leaves the live list or has ended) or the panel
 * goes. It takes the focus when it opens and gives it back, as the end-call question does, but
 * leaves the page usable around it: listening lasts, and the call list is what one listens beside.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { RemoteAudio } from '../../../components/remote-audio.js';
import { Button } from '../../../components/ui/button.js';
import { useTakeFocus } from '../../../components/ui/use-take-focus.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { useApi } from '../../../lib/api/api-context.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { usePhoneCountry } from '../../../lib/phone-country.js';
import { listenPort } from '../api/listen.js';
import { agentOf, remoteParty } from '../utils/call-fields.js';
import { startListening, type ListenStatus } from '../utils/listen-session.js';

/** What the service or the browser said, as a supervisor reads it; a refusal (another supervisor listens already, say) in the service's own words. */
const failureText = (error: unknown): string => {
  if (error instanceof ApiError) {
    if (error.code === 'call_ended' || error.code === 'call_not_found') return 'This call has already ended.';
    if (error.code === 'forbidden') return 'You may not listen to calls: it takes the calls:control permission.';
    return error.detail;
  }
  return `This browser could not play the call: ${error instanceof Error ? error.message : String(error)}.`;
};

const statusText = (status: ListenStatus): string => {
  switch (status.state) {
    case 'connecting':
      return 'Connecting…';
    case 'listening':
      return 'Listening: you hear both parties, and they do not hear you.';
    case 'ended':
      return 'The call ended; listening stopped.';
    case 'error':
      return `Not listening. ${failureText(status.error)}`;
  }
};

export const ListenPanel = ({
  call,
  live,
  scope,
  onClose,
}: {
  /** The call as it was when listening was asked for: its parties' names. */
  call: CallRecord;
  /** The same call in the live list now; undefined once it has left the list. */
  live: CallRecord | undefined;
  scope: ProviderScope;
  onClose: () => void;
}) => {
  const id = useId();
  const client = useApi();
  const country = usePhoneCountry();
  const announce = useAnnounce();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const stopRef = useRef<() => void>(undefined);
  const [status, setStatus] = useState<ListenStatus>({ state: 'connecting' });
  const [tracks, setTracks] = useState<readonly MediaStreamTrack[]>([]);
  useTakeFocus(button);

  const { callID } = call;
  useEffect(() => {
    const stop = startListening(listenPort(client, scope, callID), {
      onStatus: setStatus,
      onTrack: (track) => setTracks((before) => [...before, track]),
    });
    stopRef.current = stop;
    return stop;
  }, [client, scope, callID]);

  const over = live === undefined || live.endedAt !== undefined;
  useEffect(() => {
    if (over) stopRef.current?.();
  }, [over]);

  const text = statusText(over && status.state !== 'error' ? { state: 'ended' } : status);
  useEffect(() => announce(text), [announce, text]);

  const done = status.state === 'ended' || status.state === 'error';
  const stop = useCallback(() => {
    stopRef.current?.();
    onClose();
  }, [onClose]);

  // Escape stops while the focus is in the panel; elsewhere it keeps its meaning for the page (clearing the search, say).
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !(event.target instanceof Node) || !box.current?.contains(event.target)) return;
      event.preventDefault();
      stop();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [stop]);

  return (
    <div
      role="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-status`}
      ref={box}
      className="flex flex-col gap-2 text-sm"
    >
      <h2 id={`${id}-title`} className="font-semibold">
        Listening to {remoteParty(call, country)}
      </h2>
      <p className="text-muted">With {agentOf(call)}.</p>
      <p id={`${id}-status`} className={status.state === 'error' ? 'text-danger' : undefined}>
        {text}
      </p>
      <div className="flex justify-end">
        <Button ref={button} variant={done ? 'secondary' : 'danger'} onClick={stop}>
          {done ? 'Close' : 'Stop listening'}
        </Button>
      </div>
      <RemoteAudio tracks={tracks} />
    </div>
  );
};
