import { describe, expect, it } from 'vitest';
import { DEFAULT_POLL_MS } from './api/calls-query.js';
import { parsePollInterval } from './poll-interval.js';

describe('parsePollInterval', () => {
  it('takes 1 s to 60 s and falls back to the default otherwise', () => {
    expect(parsePollInterval('1000')).toBe(1000);
    expect(parsePollInterval('5000')).toBe(5000);
    expect(parsePollInterval('200')).toBe(DEFAULT_POLL_MS);
    expect(parsePollInterval('soon')).toBe(DEFAULT_POLL_MS);
    expect(parsePollInterval(null)).toBe(DEFAULT_POLL_MS);
  });
});
