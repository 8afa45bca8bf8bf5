/**
 * The entries of `OffHeapRows`, written one after another into chunks of shared memory:
 * [u32 key length][u32 row length][key][row]. Text is UTF-8, or UTF-16 (UTF16 added to its length)
 * when it holds a lone surrogate, which UTF-8 cannot carry; an entry replaced or deleted gets DEAD
 * added to its key's length, so scans read the chunks in write order without any index.
 *
 * A chunk whose entries are all dead is dropped, and kept for reuse: V8 does not count shared memory
 * (that is why it is shared: an `ArrayBuffer`'s bytes count as external memory, and their growth starts
 * full collections), so a chunk left to the garbage collector would be freed only by a full
 * collection, which a heap this small seldom runs. Chunks live in numbered places that are reused too,
 * so a location (`locationOf`) stays a small exact number however long the process runs.
 */
export class RowLog {
  readonly #chunks: (Buffer | null)[] = [];
  /** Bytes of live entries, and bytes written, per place. */
  readonly #liveBytes: number[] = [];
  readonly #written: number[] = [];
  /** Places in write order, from `#head` (the places before it are free); the last is being written. */
  #order: number[] = [];
  #head = 0;
  readonly #freePlaces: number[] = [];
  readonly #spareChunks: Buffer[] = [];
  /** Where `deleteOldest` goes on from in the oldest chunk: every entry before it is dead. */
  #oldestOffset = 0;

  /** Chunks in use (not dropped). */
  get chunksHeld(): number {
    return this.#chunks.filter((chunk) => chunk !== null).length;
  }

  /** Writes an entry after the last one (in a new chunk when it does not fit); returns its location. */
  append(key: string, row: string): number {
    const most = HEADER_BYTES + 3 * (key.length + row.length);
    if (most >= UTF16) throw new RangeError("OffHeapRows: a row must be shorter than 256 MiB");
    let place = this.#order[this.#order.length - 1];
    let chunk = place === undefined ? null : this.#chunks[place];
    let start = place === undefined ? 0 : (this.#written[place] as number);
    if (place === undefined || chunk === null || chunk === undefined || start + most > chunk.length) {
      const last = place;
      place = this.#newChunk(most);
      chunk = this.#chunks[place] as Buffer;
      start = 0;
      if (last !== undefined && this.#liveBytes[last] === 0) this.#drop(last);
    }
    const keyWord = write(chunk, key, start + HEADER_BYTES);
    const rowWord = write(chunk, row, start + HEADER_BYTES + (keyWord % UTF16));
    chunk.writeUInt32LE(keyWord, start);
    chunk.writeUInt32LE(rowWord, start + 4);
    const entryBytes = HEADER_BYTES + (keyWord % UTF16) + (rowWord % UTF16);
    this.#written[place] = start + entryBytes;
    this.#liveBytes[place] = (this.#liveBytes[place] as number) + entryBytes;
    return locationOf(place, start);
  }

  /** The entry at `location` was replaced or deleted: marked DEAD, its chunk dropped once nothing in it is live. */
  release(location: number): void {
    const { chunk, place, offset } = this.#at(location);
    const keyWord = chunk.readUInt32LE(offset);
    chunk.writeUInt32LE(keyWord + DEAD, offset);
    const entryBytes = HEADER_BYTES + (keyWord % UTF16) + (chunk.readUInt32LE(offset + 4) % UTF16);
    const live = (this.#liveBytes[place] as number) - entryBytes;
    this.#liveBytes[place] = live;
    if (live === 0 && place !== this.#order[this.#order.length - 1]) this.#drop(place);
  }

  keyAt(location: number): string {
    const { chunk, offset } = this.#at(location);
    return decode(chunk, offset + HEADER_BYTES, chunk.readUInt32LE(offset));
  }

  rowAt(location: number): string {
    const { chunk, offset } = this.#at(location);
    const keyBytes = chunk.readUInt32LE(offset) % UTF16;
    return decode(chunk, offset + HEADER_BYTES + keyBytes, chunk.readUInt32LE(offset + 4));
  }

  /**
   * Calls `visit` for every live entry in write order with its row's UTF-8 bytes in place
   * (`bytes[start..end)`) and its location (for `keyAt`), decoding nothing and allocating nothing per
   * entry (a row kept as UTF-16, which Kopek never writes, is converted first). Under load an entry
   * object per row made the sweeper's scan of 100,000 invoices take 16–29 ms instead of ~6.
   */
  scan(visit: RowVisitor): void {
    for (let i = this.#head; i < this.#order.length; i++) {
      const place = this.#order[i] as number;
      const chunk = this.#chunks[place];
      if (chunk === null || chunk === undefined) continue;
      const written = this.#written[place] as number;
      for (let offset = 0; offset < written; offset = entryEnd(chunk, offset))
        if (isLive(chunk, offset)) visitRow(chunk, offset, locationOf(place, offset), visit);
    }
  }

  /**
   * Calls `remove` with the key of each entry from the oldest on while `done` holds for its row (read
   * as `scan` reads it), at most `limit` times, stopping at the first live entry it does not hold for;
   * returns how many it removed. `remove` must release the entry (OffHeapRows.delete does).
   */
  deleteOldest(done: RowVisitor<boolean>, limit: number, remove: (key: string) => void): number {
    let removed = 0;
    while (removed < limit && this.#head < this.#order.length) {
      const place = this.#order[this.#head] as number;
      const chunk = this.#chunks[place] as Buffer;
      const offset = this.#oldestOffset;
      if (offset >= (this.#written[place] as number)) return removed;
      const end = entryEnd(chunk, offset);
      if (isLive(chunk, offset)) {
        const location = locationOf(place, offset);
        if (!visitRow(chunk, offset, location, done)) return removed;
        remove(this.keyAt(location));
        removed += 1;
      }
      // The chunk may have been dropped with that entry (and the head moved on, the offset reset).
      if (this.#order[this.#head] === place && this.#chunks[place] === chunk) this.#oldestOffset = end;
    }
    return removed;
  }

  #newChunk(most: number): number {
    const chunk =
      most <= CHUNK_BYTES
        ? (this.#spareChunks.pop() ?? Buffer.from(new SharedArrayBuffer(CHUNK_BYTES)))
        : Buffer.from(new SharedArrayBuffer(most));
    const place = this.#freePlaces.pop() ?? this.#chunks.length;
    this.#chunks[place] = chunk;
    this.#liveBytes[place] = 0;
    this.#written[place] = 0;
    this.#order.push(place);
    return place;
  }

  // Drops a chunk (kept for reuse when it has the standard size); frees the places at the head of the
  // order whose chunks are gone, so their numbers are used again.
  #drop(place: number): void {
    const chunk = this.#chunks[place] as Buffer;
    this.#chunks[place] = null;
    if (chunk.length === CHUNK_BYTES && this.#spareChunks.length < MAX_SPARE_CHUNKS)
      this.#spareChunks.push(chunk);
    const last = this.#order.length - 1;
    while (this.#head < last && this.#chunks[this.#order[this.#head] as number] === null) {
      this.#freePlaces.push(this.#order[this.#head] as number);
      this.#head += 1;
      this.#oldestOffset = 0;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The chunk, place and offset of a location (`locationOf`'s inverse). */
  #at(location: number): { readonly chunk: Buffer; readonly place: number; readonly offset: number } {
    const position = location - 1;
    const place = Math.floor(position / PLACE_SPAN);
    return { chunk: this.#chunks[place] as Buffer, place, offset: position - place * PLACE_SPAN };
  }
}

/** What a scan is given for each live entry: its row as UTF-8 (`bytes[start..end)`) and its location. */
export type RowVisitor<T = void> = (bytes: Uint8Array, start: number, end: number, location: number) => T;

/** An entry's location: never 0, and exact however many places there are (see `RowLog`). */
const locationOf = (place: number, offset: number) => 1 + place * PLACE_SPAN + offset;

const isLive = (chunk: Buffer, offset: number) => chunk.readUInt32LE(offset) < DEAD;

/** Where the entry after the one at `offset` starts. */
function entryEnd(chunk: Buffer, offset: number): number {
  const keyBytes = chunk.readUInt32LE(offset) % UTF16;
  return offset + HEADER_BYTES + keyBytes + (chunk.readUInt32LE(offset + 4) % UTF16);
}

function visitRow<T>(chunk: Buffer, offset: number, location: number, visit: RowVisitor<T>): T {
  const rowStart = offset + HEADER_BYTES + (chunk.readUInt32LE(offset) % UTF16);
  const rowWord = chunk.readUInt32LE(offset + 4);
  if (rowWord < UTF16) return visit(chunk, rowStart, rowStart + rowWord, location);
  const bytes = Buffer.from(decode(chunk, rowStart, rowWord), "utf8");
  return visit(bytes, 0, bytes.length, location);
}

const HEADER_BYTES = 8;
/** Added to a length word: the text is UTF-16, not UTF-8 (every length is below it). */
const UTF16 = 2 ** 28;
/** Added to a key's length word: the entry was replaced or deleted. */
const DEAD = 2 ** 31;
/** Rows go into 1 MiB chunks; a longer row gets a chunk of its own size. */
const CHUNK_BYTES = 1 << 20;
/** Dropped chunks kept for reuse at most (the rest are left to the garbage collector). */
const MAX_SPARE_CHUNKS = 16;
/** No chunk reaches 256 MiB (a row is shorter than UTF16 bytes). */
const PLACE_SPAN = 2 ** 28;

// Writes `text` at `at`, as UTF-8 unless it holds a lone surrogate (String.prototype.isWellFormed: Node
// 20, not yet in TypeScript's ES2023 lib); returns its length word. JSON.stringify escapes lone
// surrogates, so every row Kopek writes is UTF-8.
function write(chunk: Buffer, text: string, at: number): number {
  if ((text as unknown as { isWellFormed(): boolean }).isWellFormed()) return chunk.write(text, at, "utf8");
  return UTF16 + chunk.write(text, at, "utf16le");
}

// The text of a length word's bytes at `start` (its DEAD flag, if any, removed by the caller).
function decode(chunk: Buffer, start: number, word: number): string {
  return chunk.toString(word >= UTF16 ? "utf16le" : "utf8", start, start + (word % UTF16));
}
