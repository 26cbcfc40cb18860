import { describe, expect, it } from 'vitest';
import { asciiJSON } from './ascii-json.js';

const allASCII = (text: string) => [...Buffer.from(text, 'utf8')].every((byte) => byte < 0x80);

describe('asciiJSON', () => {
  it('writes the same value in ASCII bytes', () => {
    const value = { remoteName: 'Zoë Ünal', subscriberLastName: 'Núñez 😀 中村', note: 'tab\tquote" line\n', lone: '\ud800x' };
    const json = asciiJSON(value);
    expect(allASCII(json)).toBe(true);
    expect(JSON.parse(json)).toEqual(value);
    expect(json).toContain('Zo\\u00eb \\u00dcnal');
    expect(json).toContain('\\ud83d\\ude00');
  });

  it('leaves ASCII JSON exactly as JSON.stringify writes it', () => {
    const value = { callID: 'c-1', calls: [1, 'two', null, { deep: true }] };
    expect(asciiJSON(value)).toBe(JSON.stringify(value));
  });
});
