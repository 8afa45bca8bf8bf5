/**
 * A project's resource ids in ascending order (UUIDv7: creation order), for newest-first paging.
 * Evicted ids are skipped lazily by the reader and compacted away once they are half the index, so
 * eviction stays O(1) amortised under sustained load.
 */
export class ProjectIndex {
  #ids: string[] = [];
  #stale = 0;

  add(id: string): void {
    const ids = this.#ids;
    // Ids arrive almost always in order; a binary search places the rare late one.
    if (ids.length === 0 || (ids[ids.length - 1] as string) < id) {
      ids.push(id);
      return;
    }
    let low = 0;
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
    if (before !== null) while (i >= 0 && (ids[i] as string) >= before) i--;
    const out: string[] = [];
    for (; i >= 0 && out.length < limit; i--) {
      const id = ids[i] as string;
      if (keep(id)) out.push(id);
    }
    return out;
  }

  /** Notes that an id was evicted; compacts when half the index is stale. */
  forget(isLive: (id: string) => boolean): void {
    this.#stale += 1;
    if (this.#stale * 2 > this.#ids.length) {
      this.#ids = this.#ids.filter(isLive);
      this.#stale = 0;
    }
  }
}
