/**
 * The browser phone itself, loaded when it is turned on: whom it is, where its registration stands
 * (in words), its call, and its settings (the line, the microphone and speaker). It can be folded
 * away to a line of status; a ringing call unfolds it.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { RemoteAudio } from '../../../components/remote-audio.js';
import { Button } from '../../../components/ui/button.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { usePhone } from '../hooks/use-phone.js';
import { lineFor, type SoftphoneOffer } from '../hooks/use-softphone-offer.js';
import type { PhoneLine, SoftphoneSettings } from '../hooks/use-softphone-settings.js';
import { loadJsSIP as loadJsSIPChunk } from '../phone/load-jssip.js';
import type { JsSIPModule } from '../phone/phone.js';
import { registrationText, type Registration } from '../phone/phone-state.js';
import { DeviceSettings } from './device-settings.js';
import { LinePicker } from './line-picker.js';
import { PhoneCallView } from './phone-call.js';

interface PanelProps {
  offer: SoftphoneOffer;
  settings: SoftphoneSettings;
  onChange: (change: Partial<SoftphoneSettings>) => void;
  loadJsSIP?: () => Promise<JsSIPModule>;
}

// Beside the words, never instead of them.
const DOT: Record<Registration['status'], string> = {
  off: 'bg-ended',
  connecting: 'bg-ringing',
  ready: 'bg-available',
  reconnecting: 'bg-warn',
  refused: 'bg-danger',
  failed: 'bg-danger',
};

const Status = ({ id, registration }: { id?: string; registration: Registration }) => (
  <p id={id} className="flex items-center gap-1.5 text-sm">
    <span aria-hidden="true" className={`inline-block h-2 w-2 shrink-0 rounded-full ${DOT[registration.status]}`} />
    <span>{registrationText(registration)}</span>
  </p>
);

const providerName = (offer: SoftphoneOffer, line: PhoneLine) =>
  offer.providers.find(({ scope }) => scope.applicationID === line.applicationID && scope.providerID === line.providerID)?.name ?? line.providerID;

/** Whether the settings have something to choose: more than one provider or subscriber. */
const hasChoices = (offer: SoftphoneOffer) => offer.providers.length > 1 || offer.subscribers === 'any' || offer.subscribers.length > 1;

const PhoneView = ({ line, offer, settings, onChange, loadJsSIP }: PanelProps & { line: PhoneLine; loadJsSIP: () => Promise<JsSIPModule> }) => {
  const bodyID = useId();
  const { phone, state } = usePhone(line, settings.microphone, loadJsSIP);
  const [folded, setFolded] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const announce = useAnnounce();
  const status = registrationText(state.registration);
  useEffect(() => announce(`Browser phone: ${status}`), [announce, status]);
  const { call } = state;
  const shown = !folded || call?.phase === 'ringing';
  const busy = call !== undefined && call.phase !== 'ended';
  const { accountID, applicationID, providerID } = line;
  const scope = useMemo(() => ({ accountID, applicationID, providerID }), [accountID, applicationID, providerID]);

  return (
    <>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="text-sm font-semibold">Browser phone</h2>
          <Status registration={state.registration} />
          <p className="truncate text-xs text-muted">
            As {line.subscriberID} at {providerName(offer, line)}
          </p>
        </div>
        <Button size="sm" variant="ghost" aria-expanded={shown} aria-controls={bodyID} onClick={() => setFolded(shown)}>
          {shown ? 'Hide' : 'Show'}
        </Button>
      </div>
      {shown ? (
        <div id={bodyID} className="flex flex-col gap-3">
          {state.warning ? <p className="rounded bg-warn-bg px-2 py-1 text-sm text-warn">{state.warning}</p> : null}
          {call ? <PhoneCallView key={call.key} call={call} phone={phone} scope={scope} /> : null}
          <div>
            <Button size="sm" variant="ghost" aria-expanded={settingsOpen} onClick={() => setSettingsOpen(!settingsOpen)}>
              Phone settings
            </Button>
          </div>
          {settingsOpen ? (
            <div className="flex flex-col gap-3 border-t border-line pt-3">
              {hasChoices(offer) ? <LinePicker offer={offer} line={line} busy={busy} onChoose={(next) => onChange({ line: next })} /> : null}
              <DeviceSettings microphone={settings.microphone} speaker={settings.speaker} onChange={onChange} />
            </div>
          ) : null}
        </div>
      ) : null}
      <RemoteAudio tracks={call?.remoteTracks ?? []} speaker={settings.speaker} />
    </>
  );
};

const lineKey = (line: PhoneLine) => [line.accountID, line.applicationID, line.providerID, line.subscriberID].join('/');

export const SoftphonePanel = ({ offer, settings, onChange, loadJsSIP = loadJsSIPChunk }: PanelProps) => {
  const line = lineFor(offer, settings.line);
  return (
    <section aria-label="Browser phone" className="flex max-h-[calc(100dvh-1rem)] flex-col gap-3 overflow-y-auto rounded-lg border border-line bg-panel p-3 shadow-lg">
      {line ? (
        // Another line is another phone: the one before unregisters.
        <PhoneView key={lineKey(line)} line={line} offer={offer} settings={settings} onChange={onChange} loadJsSIP={loadJsSIP} />
      ) : (
        <>
          <div>
            <h2 className="text-sm font-semibold">Browser phone</h2>
            <Status registration={{ status: 'off' }} />
          </div>
          <LinePicker offer={offer} line={undefined} busy={false} onChoose={(next) => onChange({ line: next })} />
        </>
      )}
    </section>
  );
};
