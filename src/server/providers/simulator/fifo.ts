/** A first-in first-out queue with O(1) push and shift (Array#shift is O(n)). */

export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Oldest first. */
  *values(): Generator<T> {
    for (let i = this.head; i < this.items.length; i += 1) yield this.items[i] as T;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    this.head += 1;
    this.compact();
    return item;
  }

  private compact(): void {
    if (this.head < 1024 || this.head * 2 < this.items.length) return;
    this.items = this.items.slice(this.head);
    this.head = 0;
  }
}
