import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SyncSchedule } from './sync-schedule.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A schedule whose lists each report `workMs` of the service's own work, instantly; asks are counted by the lists' start times. */
const scheduleWorking = (workMs: number, minGapMs = 100) => {
  const started: number[] = [];
  const schedule: SyncSchedule = new SyncSchedule({
    clock: { now: () => Date.now() },
    intervalMs: 60_000,
    minGapMs,
    list: async () => {
      started.push(Date.now());
      schedule.worked(workMs);
    },
  });
  return { schedule, started };
};

/** Starts the schedule, asks for a list every 10 ms for `ms`, stops it; the gaps between the lists' starts. */
const gapsWhenAskedFor = async ({ schedule, started }: ReturnType<typeof scheduleWorking>, ms: number) => {
  schedule.start();
  await vi.advanceTimersByTimeAsync(0);
  expect(started).toHaveLength(1);
  for (let elapsed = 0; elapsed < ms; elapsed += 10) {
    schedule.ask(0);
    await vi.advanceTimersByTimeAsync(10);
  }
  schedule.stop();
  return started.slice(1).map((at, i) => at - (started[i] as number));
};

describe('the sync schedule', () => {
  it('starts lists at least twice the work on the last one apart, however often it is asked', async () => {
    const gaps = await gapsWhenAskedFor(scheduleWorking(160), 1000);
    expect(gaps.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(320);
  });

  it('keeps to the floor where the work is quick', async () => {
    const gaps = await gapsWhenAskedFor(scheduleWorking(5), 1000);
    expect(gaps.length).toBeGreaterThanOrEqual(9);
    for (const gap of gaps) expect(gap).toBe(100);
  });

  it('lets the provider’s own floor win where it is the longer', async () => {
    const gaps = await gapsWhenAskedFor(scheduleWorking(160, 500), 2000);
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    for (const gap of gaps) expect(gap).toBe(500);
  });
});
