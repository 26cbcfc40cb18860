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
    this.heap.push({ time, order: this.scheduled++, run });
    this.siftUp(this.heap.length - 1);
  }

  /** Time of the earliest event, or undefined when none is pending. */
  peekTime(): number | undefined {
    return this.heap[0]?.time;
  }

  pop(): { time: number; run: () => void } | undefined {
    const first = this.heap[0];
    const last = this.heap.pop();
    if (first && last && first !== last) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return first;
  }

  private siftUp(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private siftDown(index: number): void {
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let first = index;
      if (left < this.heap.length && this.before(left, first)) first = left;
      if (right < this.heap.length && this.before(right, first)) first = right;
      if (first === index) return;
      this.swap(index, first);
      index = first;
    }
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a] as ScheduledEvent;
    const y = this.heap[b] as ScheduledEvent;
    return x.time < y.time || (x.time === y.time && x.order < y.order);
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a] as ScheduledEvent;
    this.heap[a] = this.heap[b] as ScheduledEvent;
    this.heap[b] = x;
  }
}
