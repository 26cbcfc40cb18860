import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './when-idle.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('waits for the browser’s idle time, at the latest the timeout, and can be called off', () => {
    const idle: { work: () => void; timeout: number | undefined }[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void, options?: { timeout?: number }) =>
      idle.push({ work, timeout: options?.timeout }),
    );
    vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelled.push(handle));
    const work = vi.fn();

    whenIdle(work, 1500);
    expect(work).not.toHaveBeenCalled();
    expect(idle[0]?.timeout).toBe(1500);
    idle[0]?.work();
    expect(work).toHaveBeenCalledOnce();

    whenIdle(work)();
    expect(cancelled).toEqual([2]);
  });

  it('runs in a task of its own where the browser has no idle callbacks', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const work = vi.fn();

    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledOnce();

    const later = vi.fn();
    whenIdle(later)();
    vi.runAllTimers();
    expect(later).not.toHaveBeenCalled();
  });
});
