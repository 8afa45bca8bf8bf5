/**
 * Idempotency keys in the order they were written, with when each expires. Records live a constant
 * time, so insertion order is expiry order and the oldest entry is always at the head: purging is a
 * pop, never a scan. Kept as three parallel arrays, not an object per entry: one entry per write stays
 * queued for 24 hours, and arrays of numbers and shared strings cost the garbage collector nothing
 * per entry.
 */
export class ExpiryQueue {
  #expiresAt: number[] = [];
  #projectIds: string[] = [];
  #keys: string[] = [];
  #head = 0;
  #last = Number.NEGATIVE_INFINITY;
  #ordered = true;

  get size(): number {
    return this.#keys.length - this.#head;
  }

  /** False once an entry was pushed that expires before one already queued: expired entries may then hide behind the head. */
  get ordered(): boolean {
    return this.#ordered;
  }

  /** Queues a key written in `projectId` that expires at `expiresAt` (epoch milliseconds). */
  push(expiresAt: number, projectId: string, key: string): void {
    if (expiresAt < this.#last) this.#ordered = false;
    this.#last = expiresAt;
    this.#expiresAt.push(expiresAt);
    this.#projectIds.push(projectId);
    this.#keys.push(key);
  }

  /** Removes and returns the head when it has expired at `now`; undefined otherwise. */
  shiftExpired(now: number): { readonly projectId: string; readonly key: string } | undefined {
    const head = this.#head;
    if (head >= this.#keys.length || (this.#expiresAt[head] as number) > now) return undefined;
    const entry = { projectId: this.#projectIds[head] as string, key: this.#keys[head] as string };
    this.#head += 1;
    if (this.size === 0) this.#reset();
    else this.#compact();
    return entry;
  }

  #reset(): void {
    this.#expiresAt = [];
    this.#projectIds = [];
    this.#keys = [];
    this.#head = 0;
    this.#last = Number.NEGATIVE_INFINITY;
    this.#ordered = true;
  }

  // Dropping the consumed prefix only once it is at least half the arrays keeps shifting O(1) amortised.
  // Until then the consumed entries keep their keys alive: never more of them than live entries.
  #compact(): void {
    if (this.#head < 1024 || this.#head * 2 < this.#keys.length) return;
    this.#expiresAt = this.#expiresAt.slice(this.#head);
    this.#projectIds = this.#projectIds.slice(this.#head);
    this.#keys = this.#keys.slice(this.#head);
    this.#head = 0;
  }
}
