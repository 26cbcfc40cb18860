import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { resolveSimulatorOptions, type PhoneSystemSimulatorOptions } from './simulator-options.js';

const base: PhoneSystemSimulatorOptions = { clock: new ManualClock(0), seed: 1, name: 'Demo PBX' };

describe('resolveSimulatorOptions', () => {
  it('fills in the documented defaults', () => {
    expect(resolveSimulatorOptions(base)).toEqual({
      ...base,
      dialMode: 'two-step',
      agents: 24,
      traffic: 1,
      speed: 1,
      warmupMs: 3_600_000,
      keepEndedMs: 120_000,
      emailDomain: 'example.com',
      queues: [],
    });
  });

  it('treats an option given as undefined as left out', () => {
    expect(resolveSimulatorOptions({ ...base, agents: undefined, dialMode: undefined }).agents).toBe(24);
  });

  it.each([
    ['agents', { agents: 0 }],
    ['agents', { agents: 2.5 }],
    ['traffic', { traffic: -1 }],
    ['traffic', { traffic: Number.NaN }],
    ['speed', { speed: 0 }],
    ['warmupMs', { warmupMs: -1 }],
    ['keepEndedMs', { keepEndedMs: Number.POSITIVE_INFINITY }],
    ['seed', { seed: 1.5 }],
    ['name', { name: '  ' }],
    ['dialMode', { dialMode: 'carrier-pigeon' }],
    ['emailDomain', { emailDomain: 'not a domain' }],
    ['clock', { clock: {} }],
  ])('names the bad option "%s"', (option, override) => {
    const options = { ...base, ...override } as PhoneSystemSimulatorOptions;
    expect(() => resolveSimulatorOptions(options)).toThrow(`Invalid phone-system simulator option "${option}"`);
  });
});
