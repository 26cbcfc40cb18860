import { act, waitFor } from '@testing-library/react';
import { useSearchParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api/api-error.js';
import { stubFetch } from '../test-support/fetch-stub.js';
import { renderHookWithApp, TEST_CONNECTION } from '../test-support/render.js';
import { useWorkspace } from './workspace.js';

const me = {
  account: { id: 'demo', name: 'Demo' },
  applications: [{ id: 'support', name: 'Support desk', providers: [{ id: 'pbx-main', name: 'Main PBX', type: 'simulator', canEndCalls: true, canListen: false, softphone: false }] }],
  permissions: ['calls:read'],
};

describe('useWorkspace', () => {
  it('chooses from /v1/me, the first application and provider unless the URL says otherwise', async () => {
    stubFetch({ 'GET /v1/me': () => Response.json(me) });
    const { result } = renderHookWithApp(() => useWorkspace());
    expect(result.current.status).toBe('pending');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.status === 'ready' && result.current.workspace.scopes).toEqual([
      { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' },
    ]);
  });

  it('keeps the same workspace while the URL changes only for the table, and a new one for another provider', async () => {
    stubFetch({
      'GET /v1/me': () =>
        Response.json({
          ...me,
          applications: [{ ...me.applications[0], providers: [...me.applications[0]!.providers, { id: 'sip', name: 'SIP', type: 'kamailio', canEndCalls: false, canListen: false, softphone: false }] }],
        }),
    });
    const { result } = renderHookWithApp(() => ({ state: useWorkspace(), params: useSearchParams() }));
    await waitFor(() => expect(result.current.state.status).toBe('ready'));
    const workspaceOf = () => (result.current.state.status === 'ready' ? result.current.state.workspace : undefined);
    const first = workspaceOf();
    const setParams = (next: Record<string, string>) => act(() => result.current.params[1](next));
    setParams({ search: 'maya', sort: 'duration' });
    expect(result.current.params[0].get('search')).toBe('maya');
    expect(workspaceOf()).toBe(first);
    setParams({ search: 'maya', provider: 'sip' });
    expect(workspaceOf()?.scopes).toEqual([{ accountID: 'demo', applicationID: 'support', providerID: 'sip' }]);
    expect(workspaceOf()).not.toBe(first);
  });

  it('never asks /v1/me when the connection carries a hand-typed scope', () => {
    const fetchSpy = stubFetch({});
    const manualScope = { accountID: 'acme', applicationID: 'sales', providerIDs: ['pbx-1', 'pbx-2'] };
    const { result } = renderHookWithApp(() => useWorkspace(), {
      connection: { ...TEST_CONNECTION, manualScope },
      url: '/?provider=pbx-2',
    });
    expect(result.current.status === 'ready' && result.current.workspace.scopes).toEqual([
      { accountID: 'acme', applicationID: 'sales', providerID: 'pbx-2' },
    ]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("gives the service's refusal as the API error it is", async () => {
    stubFetch({
      'GET /v1/me': () =>
        Response.json(
          { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'Unknown token.' },
          { status: 401 },
        ),
    });
    const { result } = renderHookWithApp(() => useWorkspace());
    await waitFor(() => expect(result.current.status).toBe('error'));
    const error = result.current.status === 'error' ? result.current.error : undefined;
    expect(error).toBeInstanceOf(ApiError);
    expect(error?.code).toBe('unauthorized');
  });

  it("counts a token's calls:read as leave to export, and a person's export only where the service grants it", async () => {
    stubFetch({ 'GET /v1/me': () => Response.json(me) });
    const token = renderHookWithApp(() => useWorkspace());
    await waitFor(() => expect(token.result.current.status).toBe('ready'));
    expect(token.result.current.status === 'ready' && token.result.current.workspace.permissions).toContain('calls:export');
    token.unmount();

    const person = { subject: 's', email: 'ada@example.com', name: 'Ada' };
    stubFetch({ 'GET /v1/me': () => Response.json({ ...me, person, roles: ['supervisor'] }) });
    const supervisor = renderHookWithApp(() => useWorkspace());
    await waitFor(() => expect(supervisor.result.current.status).toBe('ready'));
    expect(supervisor.result.current.status === 'ready' && supervisor.result.current.workspace.permissions).toEqual(['calls:read']);
  });
});
