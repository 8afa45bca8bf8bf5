/** What the queue orders by: the moment, in epoch milliseconds, from which an entry may be purged. */
export interface Expiring {
  readonly expiresAt: number;
}

/**
 * A FIFO of expiring entries. Idempotency records live a constant time, so insertion order is expiry
 * order and the oldest entry is always at the head: purging is a pop, never a scan.
 */
export class ExpiryQueue<T extends Expiring> {
  #items: (T | undefined)[] = [];
  #head = 0;
  #last = Number.NEGATIVE_INFINITY;
  #ordered = true;

  get size(): number {
    return this.#items.length - this.#head;
  }

  /** False once an entry was pushed that expires before one already queued: expired entries may then hide behind the head. */
  get ordered(): boolean {
    return this.#ordered;
  }

  push(item: T): void {
    if (item.expiresAt < this.#last) this.#ordered = false;
    this.#last = item.expiresAt;
    this.#items.push(item);
  }

  /** Removes and returns the head when it has expired at `now`; undefined otherwise. */
  shiftExpired(now: number): T | undefined {
    const item = this.#items[this.#head];
    if (item === undefined || item.expiresAt > now) return undefined;
    this.#items[this.#head] = undefined;
    this.#head += 1;
    if (this.size === 0) this.#reset();
    else this.#compact();
    return item;
  }

  #reset(): void {
    this.#items = [];
    this.#head = 0;
    this.#last = Number.NEGATIVE_INFINITY;
    this.#ordered = true;
  }

  // Dropping the consumed prefix only once it is at least half the array keeps shifting O(1) amortised.
  #compact(): void {
    if (this.#head < 1024 || this.#head * 2 < this.#items.length) return;
    this.#items = this.#items.slice(this.#head);
    this.#head = 0;
  }
}
