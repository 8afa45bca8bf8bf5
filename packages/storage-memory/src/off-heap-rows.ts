import { RowLog, type RowVisitor } from "./row-log.js";

/**
 * A map from string keys to string rows that keeps the rows' bytes outside V8's heap. Memory storage
 * keeps a row for every write (an idempotency record for 24 hours, an invoice until it is evicted);
 * on the heap, every young collection copied each new row and every full one walked them all, on the
 * one core that also answers requests: that work, not the requests, made most of a create's p99 and
 * a fifth of its CPU (docs/performance-log.md, twelfth session). Here a row costs the heap nothing:
 * its key and text are written into a `RowLog` (chunks of shared memory), found through an
 * open-addressing index in typed arrays (shared memory too, see row-log.ts: as ordinary arrays their
 * growth started full collections, and the create's p99 went 7.8 → 12.4 ms), and decoded again on
 * every read (a reader gets a fresh string, as from a database).
 *
 * The index grows (or sheds its DELETED slots) without a stall: the entries move to the new index a
 * few per write, and until they all have, a lookup reads both. Rebuilt in one go, the growth touched
 * every page of the new arrays at once, and on a VM each new page costs ~12 µs: 35 ms in one turn at
 * 131,072 records, and (at that rate) ~0.5 s at 2 M. An index of the size the last move left reuses
 * its arrays, so churn allocates none.
 */
export class OffHeapRows<Row extends string = string> {
  #index: Slots;
  /** The index being moved into `#index`, its slots before `#moved` done; null when none is. */
  #old: Slots | null = null;
  #moved = 0;
  /** Slots of `#old` moved per write: enough to finish before `#index` must grow again. */
  #step = 0;
  /** The index the last move emptied, for the next index of the same size. */
  #spare: Slots | null = null;
  #size = 0;
  readonly #log = new RowLog();

  constructor(initialSlots = 1024) {
    this.#index = new Slots(2 ** Math.ceil(Math.log2(Math.max(initialSlots, 16))), null);
  }

  get size(): number {
    return this.#size;
  }

  /** Chunks of the log in use (for tests). */
  get chunksHeld(): number {
    return this.#log.chunksHeld;
  }

  get(key: string): Row | undefined {
    const location = this.#locate(key);
    return location === EMPTY ? undefined : (this.#log.rowAt(location) as Row);
  }

  has(key: string): boolean {
    return this.#locate(key) !== EMPTY;
  }

  set(key: string, row: Row): this {
    const hash = hashOf(key);
    const index = this.#index;
    const slot = index.find(key, hash, this.#log);
    const location = this.#log.append(key, row);
    if (slot >= 0) {
      this.#log.release(index.locations[slot] as number);
      index.locations[slot] = location;
    } else {
      if (!this.#remove(this.#old, key, hash)) this.#size += 1;
      index.put(-1 - slot, hash, location);
    }
    this.#move();
    if (index.filled * 2 > index.length) this.#grow();
    return this;
  }

  delete(key: string): boolean {
    const hash = hashOf(key);
    if (!this.#remove(this.#index, key, hash) && !this.#remove(this.#old, key, hash)) return false;
    this.#size -= 1;
    this.#move();
    return true;
  }

  /** Every key with its row, oldest write first (each row decoded: slow over many rows). */
  entries(): IterableIterator<[string, Row]> {
    const entries: [string, Row][] = [];
    this.#log.scan((_bytes, _start, _end, location) =>
      entries.push([this.#log.keyAt(location), this.#log.rowAt(location) as Row]),
    );
    return entries[Symbol.iterator]();
  }

  /** Every row, oldest write first (each decoded, its key not). */
  values(): IterableIterator<Row> {
    const rows: Row[] = [];
    this.#log.scan((_bytes, _start, _end, location) => rows.push(this.#log.rowAt(location) as Row));
    return rows[Symbol.iterator]();
  }

  /**
   * A scan of every row that decodes none: `pick` reads each row's UTF-8 bytes in place
   * (`bytes[start..end)`) and returns a value for the rows it wants, else null; their keys come back
   * with those values. (A scan decoding 100,000 rows stalls the server for ~50 ms.)
   */
  pick<P>(pick: RowVisitor<P | null>): [string, P][] {
    const picked: [string, P][] = [];
    this.#log.scan((bytes, start, end, location) => {
      const value = pick(bytes, start, end, location);
      if (value !== null) picked.push([this.#log.keyAt(location), value]);
    });
    return picked;
  }

  /**
   * Deletes rows oldest write first while `done` holds for them (read in place, as in `pick`), at most
   * `limit`, stopping at the first live row it does not hold for; returns how many it deleted. For rows
   * that are done with in about the order they were written (records that expire): one that is done
   * before older ones waits for them.
   */
  deleteOldest(done: RowVisitor<boolean>, limit: number): number {
    return this.#log.deleteOldest(done, limit, (key) => this.delete(key));
  }

  // The key's location in the log, from the index or the one being moved out of; EMPTY when absent.
  #locate(key: string): number {
    const hash = hashOf(key);
    const slot = this.#index.find(key, hash, this.#log);
    if (slot >= 0) return this.#index.locations[slot] as number;
    const old = this.#old;
    const oldSlot = old === null ? -1 : old.find(key, hash, this.#log);
    return old === null || oldSlot < 0 ? EMPTY : (old.locations[oldSlot] as number);
  }

  // Deletes the key from `index` (none: false): its slot DELETED, its entry released.
  #remove(index: Slots | null, key: string, hash: number): boolean {
    const slot = index === null ? -1 : index.find(key, hash, this.#log);
    if (index === null || slot < 0) return false;
    this.#log.release(index.locations[slot] as number);
    index.locations[slot] = DELETED;
    return true;
  }

  // A new index sized for four times the live entries (bigger, or the same size without its DELETED
  // slots); the entries move into it as writes go on.
  #grow(): void {
    while (this.#old !== null) this.#move(); // Never expected: each move is sized to finish in time.
    const slots = Math.max(16, 2 ** Math.ceil(Math.log2(this.#size * 4 + 1)));
    const spare = this.#spare?.length === slots ? this.#spare : null;
    this.#spare = null;
    this.#old = this.#index;
    this.#index = new Slots(slots, spare);
    this.#moved = 0;
    // The new index takes at least slots / 2 − size more writes before it must grow again.
    this.#step = Math.ceil(this.#old.length / Math.max(1, slots / 2 - this.#size)) + 1;
  }

  // Moves the next `#step` slots of the old index into the new one, marking each DELETED in the old
  // (a probe there must still pass it); frees the old index once all have moved.
  #move(): void {
    const old = this.#old;
    if (old === null) return;
    const end = Math.min(old.length, this.#moved + this.#step);
    for (let slot = this.#moved; slot < end; slot++) {
      const location = old.locations[slot] as number;
      if (location <= 0) continue;
      const hash = old.hashes[slot] as number;
      this.#index.put(this.#index.freeSlot(hash), hash, location);
      old.locations[slot] = DELETED;
    }
    this.#moved = end;
    if (end < old.length) return;
    this.#old = null;
    this.#spare = old;
  }
}

/**
 * An open-addressing index (linear probing) in typed arrays of shared memory (see row-log.ts: as
 * ordinary arrays their growth started full collections, and the create's p99 went 7.8 → 12.4 ms):
 * slot → 32-bit hash of the key, and the entry's location in the log (EMPTY, DELETED, or ≥ 1).
 */
class Slots {
  readonly hashes: Int32Array;
  readonly locations: Float64Array;
  /** Slots not EMPTY (live and DELETED): what decides when the index grows. */
  filled = 0;

  constructor(slots: number, reuse: Slots | null) {
    this.hashes = reuse?.hashes ?? new Int32Array(new SharedArrayBuffer(slots * 4));
    this.locations = reuse?.locations.fill(EMPTY) ?? new Float64Array(new SharedArrayBuffer(slots * 8));
  }

  get length(): number {
    return this.locations.length;
  }

  // The key's slot, or −1 − the slot to insert it at (the first DELETED one on its probe, else EMPTY).
  find(key: string, hash: number, log: RowLog): number {
    const locations = this.locations;
    const mask = locations.length - 1;
    let free = -1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const location = locations[slot] as number;
      if (location === EMPTY) return -1 - (free < 0 ? slot : free);
      if (location === DELETED) {
        if (free < 0) free = slot;
      } else if (this.hashes[slot] === hash && log.keyAt(location) === key) return slot;
    }
  }

  // The first free slot on the probe of a key known not to be here (no key to compare).
  freeSlot(hash: number): number {
    const mask = this.locations.length - 1;
    let slot = hash & mask;
    while ((this.locations[slot] as number) > 0) slot = (slot + 1) & mask;
    return slot;
  }

  put(slot: number, hash: number, location: number): void {
    if (this.locations[slot] === EMPTY) this.filled += 1;
    this.hashes[slot] = hash;
    this.locations[slot] = location;
  }
}

const EMPTY = 0;
const DELETED = -1;

/** FNV-1a over the key's UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}
