/**
 * The microphones and speakers this browser lists, kept up to date as devices come and go. Their
 * names show once the page may use the microphone (after the first call); before, they are numbered.
 */
import { useEffect, useState } from 'react';

export interface AudioDevice {
  id: string;
  label: string;
}

export interface AudioDevices {
  microphones: AudioDevice[];
  /** Empty where the browser cannot play a page's sound on a chosen speaker (no `setSinkId`). */
  speakers: AudioDevice[];
}

const NONE: AudioDevices = { microphones: [], speakers: [] };

export const canChooseSpeaker = (): boolean => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

const devicesOf = (all: readonly MediaDeviceInfo[], kind: MediaDeviceKind, word: string): AudioDevice[] =>
  all
    .filter((device) => device.kind === kind && device.deviceId !== '' && device.deviceId !== 'default')
    .map((device, index) => ({ id: device.deviceId, label: device.label || `${word} ${index + 1}` }));

const listDevices = async (): Promise<AudioDevices> => {
  const all = await navigator.mediaDevices.enumerateDevices();
  return { microphones: devicesOf(all, 'audioinput', 'Microphone'), speakers: canChooseSpeaker() ? devicesOf(all, 'audiooutput', 'Speaker') : [] };
};

export const useAudioDevices = (): AudioDevices => {
  const [devices, setDevices] = useState<AudioDevices>(NONE);
  useEffect(() => {
    const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!media?.enumerateDevices) return undefined;
    let current = true;
    const refresh = () =>
      void listDevices().then(
        (listed) => current && setDevices(listed),
        () => undefined,
      );
    refresh();
    media.addEventListener('devicechange', refresh);
    return () => {
      current = false;
      media.removeEventListener('devicechange', refresh);
    };
  }, []);
  return devices;
};
