import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TITLE_EVERY_MS, useTitlePart } from './document-title.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  // Well past any write an earlier test made.
  vi.advanceTimersByTime(10 * TITLE_EVERY_MS);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useTitlePart', () => {
  it('shows a live count at once, then at most once a second, ending on the latest', () => {
    const { rerender, unmount } = renderHook(({ text }) => useTitlePart('page', text), { initialProps: { text: '(1) Live calls' } });
    expect(document.title).toBe('(1) Live calls');
    rerender({ text: '(2) Live calls' });
    rerender({ text: '(3) Live calls' });
    expect(document.title).toBe('(1) Live calls');
    vi.advanceTimersByTime(TITLE_EVERY_MS - 1);
    expect(document.title).toBe('(1) Live calls');
    vi.advanceTimersByTime(1);
    expect(document.title).toBe('(3) Live calls');
    unmount();
    vi.advanceTimersByTime(TITLE_EVERY_MS);
    expect(document.title).toBe('Callboard');
  });

  it('puts an alert in front at once, and takes it away at once, even between two counts', () => {
    const page = renderHook(({ text }) => useTitlePart('page', text), { initialProps: { text: '(4) Live calls' } });
    page.rerender({ text: '(5) Live calls' });
    const alert = renderHook(() => useTitlePart('alert', '‼ Service level 60 %'));
    expect(document.title).toBe('‼ Service level 60 % · (5) Live calls');
    alert.unmount();
    expect(document.title).toBe('(5) Live calls');
    page.unmount();
  });
});
