import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { type Clock, millisecondsOf, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";

// Ids are made on every write, so random bytes are fetched in blocks rather than per id.
const POOL_SIZE = 4096;
/** The character codes of 0-9a-f, and of the dash. */
const HEX_DIGITS = Uint8Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));
const DASH = 0x2d;
const hi = (byte: number): number => HEX_DIGITS[(byte >>> 4) & 0x0f] as number;
const lo = (byte: number): number => HEX_DIGITS[byte & 0x0f] as number;
const TWO_POW_32 = 2 ** 32;
const byteAt = (bytes: Uint8Array, index: number): number => bytes[index] as number;

export interface UuidV7Options {
  readonly clock?: Clock;
  readonly randomBytes?: (size: number) => Uint8Array;
}

/**
 * RFC 9562 version 7 UUIDs, monotonic within one generator. rand_a holds a 12-bit counter (RFC 9562
 * 6.2, method 1): it starts at a random value below 2048 in each new millisecond, leaving at least 2048
 * ids of headroom, and when it does overflow the timestamp moves one millisecond ahead. A clock that
 * steps backwards therefore never makes an id sort before an earlier one.
 */
export function createUuidV7Generator(options: UuidV7Options = {}): IdGenerator {
  const nowMs = millisecondsOf(options.clock ?? systemClock);
  const randomBytes = options.randomBytes ?? ((size: number) => cryptoRandomBytes(size));
  let pool: Uint8Array = new Uint8Array(0);
  let offset = 0;
  let lastMs = -1;
  let counter = 0;

  const take = (count: number): number => {
    if (offset + count > pool.length) {
      pool = randomBytes(POOL_SIZE);
      offset = 0;
    }
    const start = offset;
    offset += count;
    return start;
  };

  return {
    newId(): string {
      const now = nowMs();
      if (now > lastMs) {
        const seed = take(2);
        lastMs = now;
        counter = (((pool[seed] ?? 0) & 0x07) << 8) | (pool[seed + 1] ?? 0);
      } else if (++counter > 0xfff) {
        lastMs++;
        counter = 0;
      }
      const high = Math.floor(lastMs / TWO_POW_32);
      const low = lastMs % TWO_POW_32;
      const r = take(8);
      const r0 = 0x80 | (byteAt(pool, r) & 0x3f);
      const r1 = byteAt(pool, r + 1);
      const r2 = byteAt(pool, r + 2);
      const r3 = byteAt(pool, r + 3);
      const r4 = byteAt(pool, r + 4);
      const r5 = byteAt(pool, r + 5);
      const r6 = byteAt(pool, r + 6);
      const r7 = byteAt(pool, r + 7);
      // One call that makes one flat string. Built with `+`, an id was a rope of a dozen cons strings
      // that every Map lookup then had to flatten: 4x slower once the id is used as a key.
      return String.fromCharCode(
        hi((high >>> 8) & 0xff),
        lo(high >>> 8),
        hi(high & 0xff),
        lo(high),
        hi(low >>> 24),
        lo(low >>> 24),
        hi((low >>> 16) & 0xff),
        lo(low >>> 16),
        DASH,
        hi((low >>> 8) & 0xff),
        lo(low >>> 8),
        hi(low & 0xff),
        lo(low),
        DASH,
        hi(0x70 | (counter >>> 8)),
        lo(counter >>> 8),
        hi(counter & 0xff),
        lo(counter),
        DASH,
        hi(r0),
        lo(r0),
        hi(r1),
        lo(r1),
        DASH,
        hi(r2),
        lo(r2),
        hi(r3),
        lo(r3),
        hi(r4),
        lo(r4),
        hi(r5),
        lo(r5),
        hi(r6),
        lo(r6),
        hi(r7),
        lo(r7),
      );
    },
  };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in the canonical 8-4-4-4-12 hex form, of any version, in either case. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
