/**
 * A project's resource ids in ascending order (UUIDv7: creation order), for newest-first paging.
 * Eviction goes oldest first, so an evicted id is almost always this index's oldest: it is dropped at
 * once, and the dropped prefix is cut off once it is most of the array. Any other evicted id is skipped
 * lazily by the reader and compacted away once such ids are half the index, so eviction stays O(1)
 * amortised under sustained load, without looking a single row up.
 */
export class ProjectIndex {
  #ids: string[] = [];
  /** Ids before it were evicted. */
  #head = 0;
  /** Evicted ids past the head, still in the array. */
  #stale = 0;

  add(id: string): void {
    const ids = this.#ids;
    // Ids arrive almost always in order; a binary search places the rare late one.
    if (ids.length === this.#head || (ids[ids.length - 1] as string) < id) {
      ids.push(id);
      return;
    }
    let low = this.#head;
    let high = ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((ids[middle] as string) < id) low = middle + 1;
      else high = middle;
    }
    ids.splice(low, 0, id);
  }

  /** Ids older than `before` (all when null), newest first, for which `keep` holds, at most `limit`. */
  newest(limit: number, before: string | null, keep: (id: string) => boolean): string[] {
    const ids = this.#ids;
    let i = ids.length - 1;
    if (before !== null) while (i >= this.#head && (ids[i] as string) >= before) i--;
    const out: string[] = [];
    for (; i >= this.#head && out.length < limit; i--) {
      const id = ids[i] as string;
      if (keep(id)) out.push(id);
    }
    return out;
  }

  /** Notes that `id` was evicted; `isLive` is asked only when the index is compacted. */
  forget(id: string, isLive: (id: string) => boolean): void {
    const ids = this.#ids;
    if (ids[this.#head] === id) {
      ids[this.#head] = "";
      this.#head += 1;
      if (this.#head === ids.length) {
        this.#ids = [];
        this.#head = 0;
        this.#stale = 0;
      } else if (this.#head > 1024 && this.#head * 2 > ids.length) {
        ids.splice(0, this.#head);
        this.#head = 0;
      }
      return;
    }
    this.#stale += 1;
    if (this.#stale * 2 > ids.length - this.#head) {
      this.#ids = ids.slice(this.#head).filter(isLive);
      this.#head = 0;
      this.#stale = 0;
    }
  }
}
