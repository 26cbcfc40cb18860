import { describe, expect, it } from 'vitest';
import { readWav, strongestTone, tonePower, toneWav } from './audio-tone.js';

describe('tones for the media tests', () => {
  it('writes a WAV that reads back as the sine it was made of', () => {
    const pcm = readWav(toneWav(1000, 0.5, 8000));
    expect(pcm.sampleRate).toBe(8000);
    expect(pcm.samples).toHaveLength(4000);
    expect(Math.max(...pcm.samples)).toBeCloseTo(0.5, 2);
  });

  it('finds the tone among candidates, and a silence has no power at all', () => {
    const pcm = readWav(toneWav(440, 1, 8000));
    const { hz, powers } = strongestTone(pcm, [300, 440, 1000, 2000]);
    expect(hz).toBe(440);
    expect(powers[440]).toBeGreaterThan(100 * (powers[1000] ?? 0));
    expect(tonePower({ sampleRate: 8000, samples: new Float32Array(8000) }, 440)).toBe(0);
  });

  it('refuses what is not a 16-bit WAV, saying why', () => {
    expect(() => readWav(Buffer.from('not a wav at all, no'))).toThrow('not a WAV file');
    const eightBit = toneWav(440, 0.1, 8000);
    eightBit.writeUInt16LE(8, 34);
    expect(() => readWav(eightBit)).toThrow('only 16-bit');
  });
});
