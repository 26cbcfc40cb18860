/** The simulator's pending events: a binary min-heap by time, ties run in the order they were scheduled. */

interface ScheduledEvent {
  readonly time: number;
  readonly order: number;
  readonly run: () => void;
}

export class EventQueue {
  private readonly heap: ScheduledEvent[] = [];
  private scheduled = 0;

  get size(): number {
    return this.heap.length;
  }

  schedule(time: number, run: () => void): void {
    this.siftUp(this.heap.length, { time, order: this.scheduled++, run });
  }

  /** Time of the earliest event, or undefined when none is pending. */
  peekTime(): number | undefined {
    return this.heap[0]?.time;
  }

  pop(): { time: number; run: () => void } | undefined {
    const first = this.heap[0];
    const last = this.heap.pop();
    if (first && last && first !== last) this.siftDown(0, last);
    return first;
  }

  /** Moves the hole at `index` up until `event` fits there. */
  private siftUp(index: number, event: ScheduledEvent): void {
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = this.heap[parentIndex] as ScheduledEvent;
      if (!runsBefore(event, parent)) break;
      this.heap[index] = parent;
      index = parentIndex;
    }
    this.heap[index] = event;
  }

  /** Moves the hole at `index` down until `event` fits there. */
  private siftDown(index: number, event: ScheduledEvent): void {
    const { heap } = this;
    for (;;) {
      let childIndex = 2 * index + 1;
      if (childIndex >= heap.length) break;
      let child = heap[childIndex] as ScheduledEvent;
      const right = heap[childIndex + 1];
      if (right && runsBefore(right, child)) {
        childIndex += 1;
        child = right;
      }
      if (!runsBefore(child, event)) break;
      heap[index] = child;
      index = childIndex;
    }
    heap[index] = event;
  }
}

const runsBefore = (a: ScheduledEvent, b: ScheduledEvent) => a.time < b.time || (a.time === b.time && a.order < b.order);
