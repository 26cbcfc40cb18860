/** The browser phone's microphone and speaker; the speaker only where the browser lets a page choose one. */
import { canChooseSpeaker, useAudioDevices, type AudioDevice } from '../hooks/use-audio-devices.js';
import type { SoftphoneSettings } from '../hooks/use-softphone-settings.js';

const fieldClass = 'w-full rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink';

const DeviceSelect = ({ label, devices, value, onChange }: { label: string; devices: AudioDevice[]; value: string | undefined; onChange: (id: string | undefined) => void }) => (
  <label className="flex flex-col gap-1 text-sm">
    <span className="text-muted">{label}</span>
    <select className={fieldClass} value={value ?? ''} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}>
      <option value="">The browser’s default</option>
      {/* A device chosen before and not plugged in now stays shown, so the choice never silently changes. */}
      {value !== undefined && !devices.some((device) => device.id === value) ? <option value={value}>A device not connected now</option> : null}
      {devices.map((device) => (
        <option key={device.id} value={device.id}>
          {device.label}
        </option>
      ))}
    </select>
  </label>
);

export const DeviceSettings = ({
  microphone,
  speaker,
  onChange,
}: {
  microphone: string | undefined;
  speaker: string | undefined;
  onChange: (change: Pick<SoftphoneSettings, 'microphone' | 'speaker'>) => void;
}) => {
  const devices = useAudioDevices();
  return (
    <div className="flex flex-col gap-2">
      <DeviceSelect label="Microphone" devices={devices.microphones} value={microphone} onChange={(id) => onChange({ microphone: id })} />
      {canChooseSpeaker() ? (
        <DeviceSelect label="Speaker" devices={devices.speakers} value={speaker} onChange={(id) => onChange({ speaker: id })} />
      ) : (
        <p className="text-xs text-muted">This browser plays calls on its default speaker.</p>
      )}
    </div>
  );
};
