import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryFill } from '../../../../contract/analytics.js';
import { HistoryFillNotice } from './history-fill-notice.js';

const TO = Date.parse('2026-11-25T12:00:00Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const week = { from: TO - 7 * DAY, to: TO };

const fill = (status: HistoryFill['status'], loadedDays: number, totalDays = 7): HistoryFill => ({
  status,
  from: iso(TO - totalDays * DAY),
  to: iso(TO),
  filledFrom: iso(TO - loadedDays * DAY),
  calls: 1234,
});

const show = (value: HistoryFill | undefined, window = week) =>
  render(<HistoryFillNotice fill={value} window={window} timeZone="UTC" />);

describe('HistoryFillNotice', () => {
  it('says plainly that the history is still filling, how much of it is loaded and from when it is complete', () => {
    show(fill('filling', 2.4));
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('History is still filling: 2.4 days of 7 loaded');
    expect(notice).toHaveTextContent(/complete from 23 Nov, 02:24:00 on/);
  });

  it('counts in hours while less than a day is loaded, or when the whole past is short', () => {
    const { unmount } = show(fill('filling', 1 / 24));
    expect(screen.getByRole('status')).toHaveTextContent('History is still filling: 1 hour of 7 days loaded');
    unmount();
    show(fill('filling', 5 / 24, 1));
    expect(screen.getByRole('status')).toHaveTextContent('History is still filling: 5 hours of 24 loaded');
  });

  it('says where the history starts when the budget cut it short, and warns when filling failed', () => {
    const { unmount } = show(fill('capped', 2));
    expect(screen.getByRole('status')).toHaveTextContent('History starts at 23 Nov, 12:00:00: 2 days of 7 loaded');
    unmount();
    show(fill('failed', 1));
    expect(screen.getByRole('status')).toHaveTextContent('History stopped filling: 1 day of 7 loaded');
  });

  it('says nothing once the history is complete, for a provider never backfilled, or when the range on screen is all filled', () => {
    show(fill('complete', 7));
    show(undefined);
    show(fill('filling', 2), { from: TO - DAY, to: TO });
    expect(screen.queryByRole('status')).toBeNull();
  });
});
