import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CallsFeed } from '../../../lib/api/use-calls-feed.js';
import { StaleBanner } from './stale-banner.js';

const feed = (over: Partial<CallsFeed> = {}): CallsFeed => ({
  status: 'ready',
  calls: [],
  snapshotAgeMs: 0,
  receivedAt: 0,
  error: undefined,
  failures: 0,
  isFetching: false,
  refetch: () => undefined,
  mode: 'streaming',
  streamAliveAt: 0,
  ...over,
});

const DOWN = "Asterisk's event socket is down (closed with code 1006); its calls are polled until it reopens.";

describe('the freshness banner', () => {
  it('says quietly that calls still arrive but more slowly while a provider\'s event socket is down', () => {
    render(<StaleBanner feed={feed({ degraded: DOWN })} freshness={{ level: 'live', ageMs: 0 }} timeZone="UTC" />);
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('Live, with slower updates');
    expect(notice).toHaveTextContent(DOWN);
  });

  it('shows nothing while all is well, and the stale warning, not the notice, once the calls stop', () => {
    const { rerender } = render(<StaleBanner feed={feed()} freshness={{ level: 'live', ageMs: 0 }} timeZone="UTC" />);
    expect(screen.queryByRole('status')).toBeNull();
    rerender(<StaleBanner feed={feed({ degraded: DOWN })} freshness={{ level: 'stale', ageMs: 60_000 }} timeZone="UTC" />);
    expect(screen.getByRole('status')).toHaveTextContent(/^Not live/);
    expect(screen.getByRole('status')).not.toHaveTextContent('slower updates');
  });
});
