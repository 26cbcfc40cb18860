import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api/api-error.js';
import { stubFetch } from '../test-support/fetch-stub.js';
import { renderHookWithApp, TEST_CONNECTION } from '../test-support/render.js';
import { useWorkspace } from './workspace.js';

const me = {
  account: { id: 'demo', name: 'Demo' },
  applications: [{ id: 'support', name: 'Support desk', providers: [{ id: 'pbx-main', name: 'Main PBX', type: 'simulator', canEndCalls: true }] }],
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
});
