/** How fresh the calls on screen are, and when that becomes worth a warning. */
import { useEffect, useRef } from 'react';
import type { CallsFeed } from '../../../lib/api/use-calls-feed.js';
import { STREAM_DEAD_AFTER_MS } from '../../../../contract/call-stream.js';
import { dataAgeMs, DEFAULT_POLL_MS } from '../../../lib/api/calls-query.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { useNow } from '../../../lib/clock.js';
import { usePolling } from '../../../lib/polling-context.js';

export type FreshnessLevel = 'pending' | 'live' | 'paused' | 'stale';

export interface Freshness {
  level: FreshnessLevel;
  /** Age of the data on screen in ms (snapshot age at receipt + time since). */
  ageMs: number;
}

/** A few missed polls make the data stale: a dead feed must never look live. */
export const staleAfterMs = (intervalMs: number): number => Math.max(10_000, intervalMs * 4);

type FeedFreshness = Pick<
  CallsFeed,
  'status' | 'snapshotAgeMs' | 'receivedAt' | 'failures' | 'mode' | 'streamAliveAt' | 'unhealthy'
>;

/**
 * Pushed calls are as fresh as the stream's last sign of life (a heartbeat every few seconds), or,
 * for a provider the service says is failing, as its last good snapshot: stale by the same rule
 * as polled calls, or at once when the service no longer serves it.
 */
const streamedFreshness = (feed: FeedFreshness, now: number, intervalMs: number): Freshness => {
  const sick = feed.unhealthy;
  const ageMs =
    sick?.snapshotAgeMs !== undefined
      ? sick.snapshotAgeMs + Math.max(0, now - sick.toldAt)
      : Math.max(0, now - feed.streamAliveAt);
  const dead = now - feed.streamAliveAt > STREAM_DEAD_AFTER_MS;
  if (dead || (sick && (!sick.available || ageMs > staleAfterMs(intervalMs)))) return { level: 'stale', ageMs };
  return { level: 'live', ageMs };
};

export const freshnessOf = (feed: FeedFreshness, now: number, paused: boolean, intervalMs: number): Freshness => {
  if (feed.status !== 'ready') return { level: feed.status === 'error' ? 'stale' : 'pending', ageMs: 0 };
  const ageMs = dataAgeMs(feed, now);
  if (paused) return { level: 'paused', ageMs };
  if (feed.mode === 'streaming') return streamedFreshness(feed, now, intervalMs);
  if (ageMs > staleAfterMs(intervalMs) || feed.failures >= 3) return { level: 'stale', ageMs };
  return { level: 'live', ageMs };
};

export const useFreshness = (feed: CallsFeed, intervalMs = DEFAULT_POLL_MS): Freshness => {
  const now = useNow();
  const { paused } = usePolling();
  const freshness = freshnessOf(feed, now, paused, intervalMs);
  const announce = useAnnounce();
  const previous = useRef<FreshnessLevel>(freshness.level);
  useEffect(() => {
    if (previous.current === freshness.level) return;
    if (freshness.level === 'stale') announce('Live updates lost. The calls shown may be out of date.');
    if (freshness.level === 'live' && previous.current === 'stale') announce('Live updates are back.');
    previous.current = freshness.level;
  }, [freshness.level, announce]);
  return freshness;
};
