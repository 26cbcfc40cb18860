/**
 * Tones for the media tests: a WAV file of a sine of known frequency (what a fake microphone says),
 * and the strength of given frequencies in a recording (what a phone heard), by the Goertzel filter.
 */

const WAV_HEADER_BYTES = 44;

/** A mono 16-bit PCM WAV of a sine at `hz`, `seconds` long, at half of full scale. */
export const toneWav = (hz: number, seconds: number, sampleRate = 48_000): Buffer => {
  const samples = Math.round(seconds * sampleRate);
  const wav = Buffer.alloc(WAV_HEADER_BYTES + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) wav.writeInt16LE(Math.round(16_383 * Math.sin((2 * Math.PI * hz * i) / sampleRate)), WAV_HEADER_BYTES + i * 2);
  return wav;
};

export interface Pcm {
  sampleRate: number;
  /** The first channel, from -1 to 1. */
  samples: Float32Array;
}

/** The first channel of a 16-bit PCM WAV, found by its chunks (a writer may put others before `data`). */
export const readWav = (wav: Buffer): Pcm => {
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file (no RIFF/WAVE header)');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number } | undefined;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') format = { channels: wav.readUInt16LE(body + 2), sampleRate: wav.readUInt32LE(body + 4), bits: wav.readUInt16LE(body + 14) };
    if (id === 'data') {
      if (!format) throw new Error('WAV data before its fmt chunk');
      if (format.bits !== 16) throw new Error(`WAV of ${format.bits}-bit samples: only 16-bit is read`);
      const frames = Math.floor(Math.min(size, wav.length - body) / (2 * format.channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i += 1) samples[i] = wav.readInt16LE(body + i * 2 * format.channels) / 32_768;
      return { sampleRate: format.sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without a data chunk');
};

/** The power of `hz` in the samples, normalised so a full-scale sine gives about 0.25 (Goertzel). */
export const tonePower = ({ sampleRate, samples }: Pcm, hz: number): number => {
  if (samples.length === 0) return 0;
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return power / (samples.length * samples.length);
};

/** The strongest of the candidate frequencies, with every candidate's power, for a failure's message. */
export const strongestTone = (pcm: Pcm, candidates: readonly number[]): { hz: number; powers: Record<number, number> } => {
  const powers = Object.fromEntries(candidates.map((hz) => [hz, tonePower(pcm, hz)]));
  const hz = candidates.reduce((best, hz) => ((powers[hz] ?? 0) > (powers[best] ?? 0) ? hz : best));
  return { hz, powers };
};
