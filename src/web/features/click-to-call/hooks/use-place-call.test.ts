import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/api-error.js';
import { retryKeepsKey } from './use-place-call.js';

describe('retryKeepsKey', () => {
  it('keeps the key when the answer may have been lost', () => {
    expect(retryKeepsKey(new ApiError('network_unreachable', 'down'))).toBe(true);
    expect(retryKeepsKey(new ApiError('provider_unavailable', 'down', 503))).toBe(true);
    expect(retryKeepsKey(new ApiError('internal', 'bug', 500))).toBe(true);
  });

  it('takes a new key after a refusal, and after a provider timeout the service already replays', () => {
    expect(retryKeepsKey(new ApiError('subscriber_not_registered', 'offline', 409))).toBe(false);
    expect(retryKeepsKey(new ApiError('validation_failed', 'bad', 400))).toBe(false);
    expect(retryKeepsKey(new ApiError('provider_timeout', 'slow', 504))).toBe(false);
  });
});
