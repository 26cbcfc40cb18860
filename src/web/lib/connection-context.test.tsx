import { useQueryClient } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../test-support/fetch-stub.js';
import { renderHookWithApp, signedInAnswer, testSession } from '../test-support/render.js';
import { ApiError } from './api/api-error.js';
import { SESSION_ENDED_REASON, useConnection } from './connection-context.js';

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('ConnectionProvider', () => {
  it("takes a one-click link's token over any session, for this tab only, and clears it from the address", () => {
    window.history.replaceState(null, '', '/wallboard#token=from-link');
    const fetchSpy = stubFetch({});
    const { result } = renderHookWithApp(() => useConnection(), { connection: null });
    expect(result.current.connection).toEqual({ kind: 'token', baseURL: '', token: 'from-link', remember: false });
    expect(result.current.checking).toBe(false);
    expect(window.location.hash).toBe('');
    expect(JSON.parse(sessionStorage.getItem('callboard.connection') ?? '{}')).toMatchObject({ token: 'from-link' });
    expect(localStorage.getItem('callboard.connection')).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('offers the sign-in the service names, and neither a connection nor a sign-in where it has none', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json({ signedIn: false, signIn: { label: 'Sign in with Okta' } }) });
    const offered = renderHookWithApp(() => useConnection(), { connection: null });
    expect(offered.result.current.checking).toBe(true);
    await waitFor(() => expect(offered.result.current.checking).toBe(false));
    expect(offered.result.current.signInOffer).toEqual({ label: 'Sign in with Okta' });
    expect(offered.result.current.connection).toBeUndefined();
    offered.unmount();

    // A service from before sign-in has no such route.
    stubFetch({ 'GET /auth/session': () => new Response('Not Found', { status: 404 }) });
    const tokensOnly = renderHookWithApp(() => useConnection(), { connection: null });
    await waitFor(() => expect(tokensOnly.result.current.checking).toBe(false));
    expect(tokensOnly.result.current.signInOffer).toBeUndefined();
    expect(tokensOnly.result.current.connection).toBeUndefined();
  });

  it('asks the service again once a session ended: signed in again meanwhile, it carries on with the new session', async () => {
    const again = testSession({ csrfToken: 'csrf-new' });
    const fetchSpy = stubFetch({ 'GET /auth/session': () => Response.json(signedInAnswer(again)) });
    const { result } = renderHookWithApp(() => useConnection(), { connection: testSession({ csrfToken: 'csrf-old' }) });
    expect(result.current.connection).toMatchObject({ kind: 'session', csrfToken: 'csrf-old' });
    act(() => result.current.signOut(SESSION_ENDED_REASON));
    expect(result.current.connection).toBeUndefined();
    await waitFor(() => expect(result.current.connection).toMatchObject({ kind: 'session', csrfToken: 'csrf-new' }));
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });

  it("takes the session's new CSRF token when a change is refused as cross-site (signed in again in another tab)", async () => {
    stubFetch({ 'GET /auth/session': () => Response.json(signedInAnswer(testSession({ csrfToken: 'csrf-new' }))) });
    const { result } = renderHookWithApp(() => ({ connection: useConnection().connection, queryClient: useQueryClient() }), {
      connection: testSession({ csrfToken: 'csrf-old' }),
    });
    const refused = result.current.queryClient.getMutationCache().build(result.current.queryClient, {
      mutationFn: () => Promise.reject(new ApiError('csrf_failed', 'Send the session\'s CSRF token.', 403)),
    });
    await act(() => refused.execute(undefined).catch(() => undefined));
    await waitFor(() => expect(result.current.connection).toMatchObject({ kind: 'session', csrfToken: 'csrf-new' }));
  });
});
