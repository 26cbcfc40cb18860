import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue.js';

describe('EventQueue', () => {
  it('runs events by time, and events at the same time in the order they were scheduled', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (times) => {
        const queue = new EventQueue();
        const ran: number[] = [];
        times.forEach((time, index) => queue.schedule(time, () => ran.push(index)));
        expect(queue.peekTime()).toBe(times.length ? Math.min(...times) : undefined);
        for (let event = queue.pop(); event; event = queue.pop()) event.run();
        const expected = times.map((time, index) => ({ time, index })).sort((a, b) => a.time - b.time || a.index - b.index);
        expect(ran).toEqual(expected.map(({ index }) => index));
        expect(queue.size).toBe(0);
      }),
    );
  });

  it('accepts new events while others are pending', () => {
    const queue = new EventQueue();
    const ran: string[] = [];
    queue.schedule(10, () => ran.push('late'));
    queue.schedule(5, () => queue.schedule(7, () => ran.push('scheduled by an event')));
    for (let event = queue.pop(); event; event = queue.pop()) event.run();
    expect(ran).toEqual(['scheduled by an event', 'late']);
  });
});
