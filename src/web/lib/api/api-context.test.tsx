import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderHookWithApp } from '../../test-support/render.js';
import { useApi } from './api-context.js';

describe('useApi', () => {
  it('says where it belongs when used outside the connection gate', () => {
    // React reports the thrown error on the console as well; the assertion is what matters here.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useApi())).toThrow(/behind the connection gate \(RequireConnection\)/);
    consoleError.mockRestore();
  });

  it("gives the signed-in connection's client, which names the service", () => {
    const { result } = renderHookWithApp(() => useApi(), {
      connection: { kind: 'token', baseURL: 'https://calls.example.com', token: 't', remember: false },
    });
    expect(result.current.baseURL).toBe('https://calls.example.com');
    expect(result.current.url('/v1/me')).toBe('https://calls.example.com/v1/me');
  });
});
