import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api/api-error.js';
import { describeCallProblem } from './problem-messages.js';

const context = { providerName: 'Main PBX', callerName: 'Maya' };
const describe_ = (error: ApiError) => describeCallProblem(error, context);

describe('describeCallProblem', () => {
  it("keeps the service's own words for a subscriber who cannot call", () => {
    const message = describe_(
      new ApiError('subscriber_not_registered', 'Extension 104 (Maya Chen) is not registered: their phone is offline', 409),
    );
    expect(message.title).toBe('Extension 104 (Maya Chen) is not registered: their phone is offline');
  });

  it('says how long to wait when rate limited', () => {
    expect(describe_(new ApiError('rate_limited', 'Slow down', 429, { retryAfterMs: 6_200 })).title).toBe(
      'Too many calls: try again in 7 s',
    );
    expect(describe_(new ApiError('rate_limited', 'Slow down', 429)).title).toBe('Too many calls: wait a moment, then try again');
  });

  it('says how long until an application that used up its call keys may place keyed calls again', () => {
    const message = describe_(new ApiError('too_many_idempotency_keys', 'limit', 429, { retryAfterMs: 90_000 }));
    expect(message.title).toBe('Your call was not placed: this application has placed as many keyed calls as it may in 24 hours');
    expect(message.hint).toMatch(/^Try again in 90 s, when the oldest call key expires/);
  });

  it.each([
    ['too_many_concurrent_requests', 429, 'Your token has too many requests under way: your call was not placed'],
    ['service_busy', 503, 'The service is busy: your call was not placed'],
    ['request_timeout', 408, 'The request reached the service too slowly: your call was not placed'],
  ] as const)('says a refused %s placed nothing and a retry is safe', (code, status, title) => {
    const message = describe_(new ApiError(code, 'detail', status));
    expect(message.title).toBe(title);
    expect(message.hint).toContain('Retry is safe');
  });

  it.each([
    ['provider_unavailable', 503, 'Main PBX is unreachable right now'],
    ['provider_timeout', 504, 'Main PBX is slow: it did not confirm the call in time'],
    ['provider_error', 502, 'Main PBX is failing: it refused the call with an error'],
  ] as const)('names the provider for %s', (code, status, title) => {
    expect(describe_(new ApiError(code, 'detail', status)).title).toBe(title);
  });

  it('warns not to retry blindly after a provider timeout', () => {
    expect(describe_(new ApiError('provider_timeout', 'late', 504)).hint).toMatch(/check whether Maya's phone is ringing/);
  });

  it('tells the agent a network failure placed nothing and a retry is safe', () => {
    const message = describe_(new ApiError('network_unreachable', 'Cannot reach http://x'));
    expect(message.title).toBe('Cannot reach the service: your call was not placed');
    expect(message.hint).toBe('Retry is safe (it will not ring twice).');
  });

  it("says an agent's token calls only as its own subscriber, with the service's words", () => {
    const detail = 'This token places calls only as subscriber "agt-0001": providerSubscriberID "agt-0002" is not allowed.';
    const message = describe_(new ApiError('subscriber_not_allowed', detail, 403));
    expect(message.title).toBe('Your token places calls only as its own subscriber: nothing was placed');
    expect(message.hint).toContain(detail);
  });

  it('says the token may not place calls when forbidden', () => {
    expect(describe_(new ApiError('forbidden', 'no', 403)).title).toBe('Your token may not place calls');
  });
});
