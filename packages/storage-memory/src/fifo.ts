/**
 * A first-in first-out queue with O(1) amortized push and shift: an array read from a moving head,
 * compacted once the consumed prefix is most of it. Not `map.keys().next()` on a Map used as a queue:
 * a V8 Map keeps deleted entries as holes at its front until it rehashes, so finding the first live
 * one after many deletions walks the holes, and sustained eviction turns quadratic.
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
    return item;
  }
}
