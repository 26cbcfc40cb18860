import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { saveConnection } from '../lib/connection.js';
import { stubFetch } from '../test-support/fetch-stub.js';
import { App } from './app.js';

// The live view's code never arrives: whatever the app asks for meanwhile, it asks for without it.
vi.mock('./routes/live-page.js', () => new Promise(() => {}));

describe('App', () => {
  it('asks what the token may see while the page is still loading its code', async () => {
    saveConnection({ baseURL: '', token: 'app-test-token-0123456789', remember: false });
    const asked: string[] = [];
    stubFetch({
      'GET /v1/me': ({ url }) => {
        asked.push(url.pathname);
        return new Promise<Response>(() => {});
      },
    });
    const { getByText } = render(<App />);
    expect(getByText('Loading…')).toBeInTheDocument();
    await waitFor(() => expect(asked).toEqual(['/v1/me']));
  });
});
