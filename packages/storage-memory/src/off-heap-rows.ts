/**
 * A map from string keys to string rows that keeps the rows' bytes outside V8's heap. Memory storage
 * keeps a row for every write (an idempotency record for 24 hours, an invoice until it is evicted);
 * on the heap, every young collection copied each new row and every full one walked them all, on the
 * one core that also answers requests: that work, not the requests, made most of a create's p99 and
 * a fifth of its CPU (docs/performance.md, "Rows off the heap"). Here a row costs the heap nothing:
 * its key and text are written as UTF-8 into large chunks, found through an open-addressing index in
 * typed arrays, and decoded again on every read (a reader gets a fresh string, as from a database).
 *
 * Chunks and index live in `SharedArrayBuffer`s although no other thread sees them: V8 counts an
 * `ArrayBuffer`'s bytes as external memory and starts full collections as they grow (13 instead of 1
 * over 150,000 creates when measured), while shared memory is left out of that count. A chunk is
 * dropped once every row written into it has been replaced or deleted.
 */
export class OffHeapRows<Row extends string = string> {
  // Index: slot → 32-bit hash of the key, and the entry's location (EMPTY, DELETED, or 1 + position).
  #hashes: Int32Array;
  #locations: Float64Array;
  #size = 0;
  /** Slots not EMPTY (live and DELETED): what decides when the index is rebuilt. */
  #filled = 0;
  // Entries: [u32 key length][u32 row length][key][row], appended to the current chunk in write order.
  // Text is UTF-8, or UTF-16 (UTF16 added to its length) when it holds a lone surrogate, which UTF-8
  // cannot carry; an entry replaced or deleted has DEAD added to its key's length, so a scan reads the
  // chunks in order, without the index.
  readonly #chunks: (Buffer | null)[] = [];
  /** Bytes of live entries per chunk; a chunk that is not the current one is dropped at 0. */
  readonly #liveBytes: number[] = [];
  /** Bytes written into each chunk. */
  readonly #written: number[] = [];
  // Where `deleteOldest` goes on from: every entry before it is dead.
  #oldestChunk = 0;
  #oldestOffset = 0;

  constructor(initialSlots = 1024) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(initialSlots, 16)));
    this.#hashes = sharedInt32(slots);
    this.#locations = sharedFloat64(slots);
  }

  get size(): number {
    return this.#size;
  }

  /** Chunks still held (for tests and `inspect`-style accounting). */
  get chunksHeld(): number {
    return this.#chunks.filter((chunk) => chunk !== null).length;
  }

  get(key: string): Row | undefined {
    const slot = this.#find(key, hashOf(key));
    return slot < 0 ? undefined : (this.#rowAt(this.#locations[slot] as number) as Row);
  }

  has(key: string): boolean {
    return this.#find(key, hashOf(key)) >= 0;
  }

  set(key: string, row: Row): this {
    const hash = hashOf(key);
    const slot = this.#find(key, hash);
    const location = this.#append(key, row);
    if (slot >= 0) {
      this.#release(this.#locations[slot] as number);
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
    this.#release(this.#locations[slot] as number);
    this.#locations[slot] = DELETED;
    this.#size -= 1;
    return true;
  }

  /** Every key with its row, oldest write first (each row decoded: slow over many rows). */
  entries(): IterableIterator<[string, Row]> {
    const entries: [string, Row][] = [];
    this.#scan((chunk, start, keyWord, rowWord) => {
      const rowStart = start + (keyWord % UTF16);
      entries.push([decode(chunk, start, keyWord), decode(chunk, rowStart, rowWord) as Row]);
    });
    return entries[Symbol.iterator]();
  }

  values(): IterableIterator<Row> {
    return [...this.entries()].map(([, row]) => row)[Symbol.iterator]();
  }

  /**
   * A scan of every row that decodes none: `pick` reads each row's UTF-8 bytes in place
   * (`bytes[start..end)`) and returns a value for the rows it wants, else null; their keys come back
   * with those values. (A scan decoding 100,000 rows stalls the server for ~50 ms.)
   */
  pick<P>(pick: (bytes: Uint8Array, start: number, end: number) => P | null): [string, P][] {
    const picked: [string, P][] = [];
    this.#scan((chunk, start, keyWord, rowWord) => {
      const rowStart = start + (keyWord % UTF16);
      const value =
        rowWord < UTF16
          ? pick(chunk, rowStart, rowStart + rowWord)
          : pickDecoded(pick, decode(chunk, rowStart, rowWord));
      if (value !== null) picked.push([decode(chunk, start, keyWord), value]);
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
    let deleted = 0;
    while (deleted < limit) {
      const index = this.#oldestChunk;
      const chunk = this.#chunks[index];
      if (chunk === undefined) return deleted;
      const offset = this.#oldestOffset;
      if (chunk === null || offset >= (this.#written[index] as number)) {
        if (index === this.#chunks.length - 1) return deleted;
        this.#oldestChunk = index + 1;
        this.#oldestOffset = 0;
        continue;
      }
      const keyWord = chunk.readUInt32LE(offset);
      const rowWord = chunk.readUInt32LE(offset + 4);
      const keyStart = offset + HEADER_BYTES;
      const rowStart = keyStart + (keyWord % UTF16);
      if (keyWord < DEAD) {
        const isDone =
          rowWord < UTF16
            ? done(chunk, rowStart, rowStart + rowWord)
            : pickDecoded(done, decode(chunk, rowStart, rowWord));
        if (!isDone) return deleted;
        this.delete(decode(chunk, keyStart, keyWord));
        deleted += 1;
      }
      this.#oldestOffset = rowStart + (rowWord % UTF16);
    }
    return deleted;
  }

  // Visits every live entry in write order: its chunk, where its key starts, and its two length words.
  #scan(visit: (chunk: Buffer, start: number, keyWord: number, rowWord: number) => void): void {
    for (let index = 0; index < this.#chunks.length; index++) {
      const chunk = this.#chunks[index];
      if (chunk === null || chunk === undefined) continue;
      const written = this.#written[index] as number;
      for (let offset = 0; offset < written; ) {
        const keyWord = chunk.readUInt32LE(offset);
        const rowWord = chunk.readUInt32LE(offset + 4);
        if (keyWord < DEAD) visit(chunk, offset + HEADER_BYTES, keyWord, rowWord);
        offset += HEADER_BYTES + (keyWord % UTF16) + (rowWord % UTF16);
      }
    }
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
      } else if (this.#hashes[slot] === hash && this.#keyAt(location) === key) return slot;
    }
  }

  // A bigger index (or the same size without its DELETED slots), every live entry placed again.
  #rebuild(): void {
    const hashes = this.#hashes;
    const locations = this.#locations;
    const slots = Math.max(16, 2 ** Math.ceil(Math.log2(this.#size * 4 + 1)));
    this.#hashes = sharedInt32(slots);
    this.#locations = sharedFloat64(slots);
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

  // Writes an entry into the current chunk (a new one when it does not fit); returns its location.
  #append(key: string, row: string): number {
    const most = HEADER_BYTES + 3 * (key.length + row.length);
    if (most >= UTF16) throw new RangeError("OffHeapRows: a row must be shorter than 256 MiB");
    let index = this.#chunks.length - 1;
    let chunk = this.#chunks[index];
    let start = this.#written[index] ?? 0;
    if (chunk === undefined || chunk === null || start + most > chunk.length) {
      if (index >= 0 && this.#liveBytes[index] === 0) this.#chunks[index] = null;
      chunk = Buffer.from(new SharedArrayBuffer(Math.max(CHUNK_BYTES, most)));
      this.#chunks.push(chunk);
      this.#liveBytes.push(0);
      this.#written.push(0);
      index += 1;
      start = 0;
    }
    const keyWord = write(chunk, key, start + HEADER_BYTES);
    const rowWord = write(chunk, row, start + HEADER_BYTES + (keyWord % UTF16));
    chunk.writeUInt32LE(keyWord, start);
    chunk.writeUInt32LE(rowWord, start + 4);
    const entryBytes = HEADER_BYTES + (keyWord % UTF16) + (rowWord % UTF16);
    this.#written[index] = start + entryBytes;
    this.#liveBytes[index] = (this.#liveBytes[index] as number) + entryBytes;
    return 1 + index * CHUNK_SPAN + start;
  }

  // The entry at `location` is replaced or deleted: marked DEAD, and its chunk dropped once nothing in
  // it is live.
  #release(location: number): void {
    const { chunk, index, offset } = this.#at(location);
    const keyWord = chunk.readUInt32LE(offset);
    chunk.writeUInt32LE(keyWord + DEAD, offset);
    const entryBytes = HEADER_BYTES + (keyWord % UTF16) + (chunk.readUInt32LE(offset + 4) % UTF16);
    const live = (this.#liveBytes[index] as number) - entryBytes;
    this.#liveBytes[index] = live;
    if (live === 0 && index !== this.#chunks.length - 1) this.#chunks[index] = null;
  }

  #at(location: number): { readonly chunk: Buffer; readonly index: number; readonly offset: number } {
    const position = location - 1;
    const index = Math.floor(position / CHUNK_SPAN);
    return { chunk: this.#chunks[index] as Buffer, index, offset: position - index * CHUNK_SPAN };
  }

  #keyAt(location: number): string {
    const { chunk, offset } = this.#at(location);
    return decode(chunk, offset + HEADER_BYTES, chunk.readUInt32LE(offset));
  }

  #rowAt(location: number): string {
    const { chunk, offset } = this.#at(location);
    const keyBytes = chunk.readUInt32LE(offset) % UTF16;
    return decode(chunk, offset + HEADER_BYTES + keyBytes, chunk.readUInt32LE(offset + 4));
  }
}

const EMPTY = 0;
const DELETED = -1;
const HEADER_BYTES = 8;
/** Added to a length word: the text is UTF-16, not UTF-8 (every length is below it). */
const UTF16 = 2 ** 28;
/** Added to a key's length word: the entry was replaced or deleted. */
const DEAD = 2 ** 31;
/** Rows go into 1 MiB chunks; a longer row gets a chunk of its own size. */
const CHUNK_BYTES = 1 << 20;
/** A location is 1 + chunk index × CHUNK_SPAN + offset: no chunk reaches 4 GiB. */
const CHUNK_SPAN = 2 ** 32;

// Writes `text` at `at`, as UTF-8 unless it holds a lone surrogate (String.prototype.isWellFormed: Node
// 20, not yet in TypeScript's ES2023 lib); returns its length word. JSON.stringify escapes lone
// surrogates, so every row Kopek writes is UTF-8.
function write(chunk: Buffer, text: string, at: number): number {
  if ((text as unknown as { isWellFormed(): boolean }).isWellFormed()) return chunk.write(text, at, "utf8");
  return UTF16 + chunk.write(text, at, "utf16le");
}

// The text of a length word's bytes at `start` (a DEAD flag is not expected).
function decode(chunk: Buffer, start: number, word: number): string {
  const bytes = word % UTF16;
  return chunk.toString(word >= UTF16 ? "utf16le" : "utf8", start, start + bytes);
}

const sharedInt32 = (length: number) => new Int32Array(new SharedArrayBuffer(length * 4));
const sharedFloat64 = (length: number) => new Float64Array(new SharedArrayBuffer(length * 8));

// A row kept as UTF-16 (it holds a lone surrogate) is shown to `pick` as UTF-8 like the others.
function pickDecoded<P>(pick: (bytes: Uint8Array, start: number, end: number) => P, row: string): P {
  const bytes = Buffer.from(row, "utf8");
  return pick(bytes, 0, bytes.length);
}

/** FNV-1a over the key's UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}
