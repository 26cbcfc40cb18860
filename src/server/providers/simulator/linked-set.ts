/**
 * An insertion-ordered set with O(1) add, delete and first. A plain Set slows down here: finding its
 * first entry skips every entry deleted since the last rehash, and agents are deleted all day long.
 */

interface Link<T> {
  readonly value: T;
  previous: Link<T> | undefined;
  next: Link<T> | undefined;
}

export class LinkedSet<T> {
  private readonly links = new Map<T, Link<T>>();
  private head: Link<T> | undefined;
  private tail: Link<T> | undefined;

  get size(): number {
    return this.links.size;
  }

  has(value: T): boolean {
    return this.links.has(value);
  }

  first(): T | undefined {
    return this.head?.value;
  }

  /** The first value, in order, that `test` accepts. */
  find(test: (value: T) => boolean): T | undefined {
    for (let link = this.head; link; link = link.next) if (test(link.value)) return link.value;
    return undefined;
  }

  /** Adds at the end; a value already present keeps its place. */
  add(value: T): void {
    if (this.links.has(value)) return;
    const link: Link<T> = { value, previous: this.tail, next: undefined };
    if (this.tail) this.tail.next = link;
    else this.head = link;
    this.tail = link;
    this.links.set(value, link);
  }

  delete(value: T): void {
    const link = this.links.get(value);
    if (!link) return;
    this.links.delete(value);
    if (link.previous) link.previous.next = link.next;
    else this.head = link.next;
    if (link.next) link.next.previous = link.previous;
    else this.tail = link.previous;
  }
}
