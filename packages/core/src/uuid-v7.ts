import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { type Clock, systemClock } from "./ports/clock.js";
import type { IdGenerator } from "./ports/id-generator.js";

// Ids are made on every write, so random bytes are fetched in blocks rather than per id.
const POOL_SIZE = 4096;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
const TWO_POW_32 = 2 ** 32;
const hex = (byte: number): string => HEX[byte] as string;
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
  const clock = options.clock ?? systemClock;
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
      const now = clock.now().getTime();
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
      const random = take(8);
      // Written straight into the hex digits: no intermediate byte array or subarray view per id.
      return (
        hex((high >>> 8) & 0xff) +
        hex(high & 0xff) +
        hex(low >>> 24) +
        hex((low >>> 16) & 0xff) +
        "-" +
        hex((low >>> 8) & 0xff) +
        hex(low & 0xff) +
        "-" +
        hex(0x70 | (counter >>> 8)) +
        hex(counter & 0xff) +
        "-" +
        hex(0x80 | (byteAt(pool, random) & 0x3f)) +
        hex(byteAt(pool, random + 1)) +
        "-" +
        hex(byteAt(pool, random + 2)) +
        hex(byteAt(pool, random + 3)) +
        hex(byteAt(pool, random + 4)) +
        hex(byteAt(pool, random + 5)) +
        hex(byteAt(pool, random + 6)) +
        hex(byteAt(pool, random + 7))
      );
    },
  };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in the canonical 8-4-4-4-12 hex form, of any version, in either case. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
