import { RowLog } from "./row-log.js";

/**
 * A map from string keys to string rows that keeps the rows' bytes outside V8's heap. Memory storage
 * keeps a row for every write (an idempotency record for 24 hours, an invoice until it is evicted);
 * on the heap, every young collection copied each new row and every full one walked them all, on the
 * one core that also answers requests: that work, not the requests, made most of a create's p99 and
 * a fifth of its CPU (docs/performance-log.md, twelfth session). Here a row costs the heap nothing:
 * its key and text are written into a `RowLog` (chunks of shared memory), found through an
 * open-addressing index in typed arrays (shared memory too, see row-log.ts: as ordinary arrays their
 * growth started full collections, and the create's p99 went 7.8 → 12.4 ms), and decoded again on
 * every read (a reader gets a fresh string, as from a database). A rebuild of the index at the same
 * size reuses the arrays the one before left, so churn allocates none.
 */
export class OffHeapRows<Row extends string = string> {
  // Index: slot → 32-bit hash of the key, and the entry's location in the log (EMPTY, DELETED, or ≥ 1).
  #hashes: Int32Array;
  #locations: Float64Array;
  #size = 0;
  /** Slots not EMPTY (live and DELETED): what decides when the index is rebuilt. */
  #filled = 0;
  /** The arrays the last rebuild replaced, for the next rebuild of the same size. */
  #spare: { readonly hashes: Int32Array; readonly locations: Float64Array } | null = null;
  readonly #log = new RowLog();

  constructor(initialSlots = 1024) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(initialSlots, 16)));
    this.#hashes = sharedInt32(slots);
    this.#locations = sharedFloat64(slots);
  }

  get size(): number {
    return this.#size;
  }

  /** Chunks of the log in use (for tests). */
  get chunksHeld(): number {
    return this.#log.chunksHeld;
  }

  get(key: string): Row | undefined {
    const slot = this.#find(key, hashOf(key));
    return slot < 0 ? undefined : (this.#log.rowAt(this.#locations[slot] as number) as Row);
  }

  has(key: string): boolean {
    return this.#find(key, hashOf(key)) >= 0;
  }

  set(key: string, row: Row): this {
    const hash = hashOf(key);
    const slot = this.#find(key, hash);
    const location = this.#log.append(key, row);
    if (slot >= 0) {
      this.#log.release(this.#locations[slot] as number);
      this.#locations[slot] = location;
      return this;
    }
    const free = -1 - slot;
    if (this.#locations[free] === EMPTY) this.#filled += 1;
    this.#hashes[free] = hash;
    this.#locations[free] = location;
    this.#size += 1;
    if (this.#filled * 2 > this.#locations.length) this.#rebuild();
    return this;
  }

  delete(key: string): boolean {
    const slot = this.#find(key, hashOf(key));
    if (slot < 0) return false;
    this.#log.release(this.#locations[slot] as number);
    this.#locations[slot] = DELETED;
    this.#size -= 1;
    return true;
  }

  /** Every key with its row, oldest write first (each row decoded: slow over many rows). */
  entries(): IterableIterator<[string, Row]> {
    const entries: [string, Row][] = [];
    this.#log.scan((entry) => entries.push([entry.key(), entry.row() as Row]));
    return entries[Symbol.iterator]();
  }

  /** Every row, oldest write first (each decoded, its key not). */
  values(): IterableIterator<Row> {
    const rows: Row[] = [];
    this.#log.scan((entry) => rows.push(entry.row() as Row));
    return rows[Symbol.iterator]();
  }

  /**
   * A scan of every row that decodes none: `pick` reads each row's UTF-8 bytes in place
   * (`bytes[start..end)`) and returns a value for the rows it wants, else null; their keys come back
   * with those values. (A scan decoding 100,000 rows stalls the server for ~50 ms.)
   */
  pick<P>(pick: (bytes: Uint8Array, start: number, end: number) => P | null): [string, P][] {
    const picked: [string, P][] = [];
    this.#log.scan((entry) => {
      const value = pick(entry.bytes, entry.rowStart, entry.rowEnd);
      if (value !== null) picked.push([entry.key(), value]);
    });
    return picked;
  }

  /**
   * Deletes rows oldest write first while `done` holds for them (read in place, as in `pick`), at most
   * `limit`, stopping at the first live row it does not hold for; returns how many it deleted. For rows
   * that are done with in about the order they were written (records that expire): one that is done
   * before older ones waits for them.
   */
  deleteOldest(done: (bytes: Uint8Array, start: number, end: number) => boolean, limit: number): number {
    return this.#log.deleteOldest(
      (entry) => done(entry.bytes, entry.rowStart, entry.rowEnd),
      limit,
      (key) => this.delete(key),
    );
  }

  // The key's slot, or −1 − the slot to insert it at (the first DELETED one on its probe, else EMPTY).
  #find(key: string, hash: number): number {
    const locations = this.#locations;
    const mask = locations.length - 1;
    let free = -1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const location = locations[slot] as number;
      if (location === EMPTY) return -1 - (free < 0 ? slot : free);
      if (location === DELETED) {
        if (free < 0) free = slot;
      } else if (this.#hashes[slot] === hash && this.#log.keyAt(location) === key) return slot;
    }
  }

  // A bigger index (or the same size without its DELETED slots), every live entry placed again.
  #rebuild(): void {
    const hashes = this.#hashes;
    const locations = this.#locations;
    const slots = Math.max(16, 2 ** Math.ceil(Math.log2(this.#size * 4 + 1)));
    const spare = this.#spare?.locations.length === slots ? this.#spare : null;
    this.#hashes = spare?.hashes ?? sharedInt32(slots);
    this.#locations = spare?.locations.fill(EMPTY) ?? sharedFloat64(slots);
    this.#spare = { hashes, locations };
    this.#filled = this.#size;
    const mask = slots - 1;
    for (let old = 0; old < locations.length; old++) {
      const location = locations[old] as number;
      if (location <= 0) continue;
      const hash = hashes[old] as number;
      let slot = hash & mask;
      while (this.#locations[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.#hashes[slot] = hash;
      this.#locations[slot] = location;
    }
  }
}

const EMPTY = 0;
const DELETED = -1;

const sharedInt32 = (length: number) => new Int32Array(new SharedArrayBuffer(length * 4));
const sharedFloat64 = (length: number) => new Float64Array(new SharedArrayBuffer(length * 8));

/** FNV-1a over the key's UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}
