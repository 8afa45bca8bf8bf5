import { crc32 } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/sha256.js";
import {
  API_KEY_PREFIX,
  apiKeyChecksum,
  BASE62_ALPHABET,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  parseBearerToken,
  splitApiKey,
} from "./api-key.js";

const ZERO_KEY = `kopek_${"0".repeat(32)}2wjyrI`;

/** A byte source that counts up from `start`, wrapping at 256. */
function countingBytes(start: number): (size: number) => Uint8Array {
  let next = start;
  return (size) => Uint8Array.from({ length: size }, () => next++ % 256);
}

/** Keys from arbitrary bytes (rejected ones included); then always-accepted bytes so generation ends. */
const keyArb = fc.uint8Array({ minLength: 1, maxLength: 100 }).map((bytes) => {
  let offset = 0;
  return generateApiKey((size) => Uint8Array.from({ length: size }, () => bytes[offset++] ?? offset % 248));
});

describe("apiKeyChecksum", () => {
  it("is the CRC-32 check value 0xCBF43926 of '123456789' in base62", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(apiKeyChecksum("123456789")).toBe("3jZRME");
    expect(apiKeyChecksum("A".repeat(32))).toBe("3Ae0o2");
  });

  it("left-pads small values with 0", () => {
    expect(apiKeyChecksum("")).toBe("000000");
  });
});

describe("generateApiKey", () => {
  it("writes kopek_ + 32 base62 characters + 6 checksum characters", () => {
    const key = generateApiKey();
    expect(key).toHaveLength(44);
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(key).toMatch(/^kopek_[0-9A-Za-z]{38}$/);
    expect(key.slice(38)).toBe(apiKeyChecksum(key.slice(6, 38)));
  });

  it("skips bytes 248–255 instead of folding them onto the first characters", () => {
    const key = generateApiKey(countingBytes(240));
    expect(key.slice(6, 38)).toBe("stuvwxyz0123456789ABCDEFGHIJKLMN");
  });

  it("uses every character about equally often", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const char of generateApiKey().slice(6, 38)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    // 64,000 characters: about 1,032 each (σ ≈ 32). Modulo bias would give '0'–'7' about 1,290.
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count - 64_000 / 62)).toBeLessThan(200);
  });

  it("produces only well-formed keys", () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(key).toHaveLength(44);
        expect(isWellFormedApiKey(key)).toBe(true);
      }),
    );
    for (let i = 0; i < 100; i++) expect(isWellFormedApiKey(generateApiKey())).toBe(true);
  });
});

describe("isWellFormedApiKey", () => {
  it("accepts a key with the right checksum", () => {
    expect(isWellFormedApiKey(ZERO_KEY)).toBe(true);
    expect(splitApiKey(ZERO_KEY)).toEqual({ random: "0".repeat(32), checksum: "2wjyrI" });
  });

  it("rejects wrong prefix, length, alphabet and checksum", () => {
    expect(isWellFormedApiKey(ZERO_KEY.replace("kopek_", "Kopek_"))).toBe(false);
    expect(isWellFormedApiKey(`${ZERO_KEY}0`)).toBe(false);
    expect(isWellFormedApiKey(ZERO_KEY.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(ZERO_KEY.replace("00000", "0000_"))).toBe(false);
    expect(isWellFormedApiKey(ZERO_KEY.replace("00000", "0000é"))).toBe(false);
    expect(isWellFormedApiKey(`${ZERO_KEY.slice(0, 38)}2wjyrJ`)).toBe(false);
    expect(isWellFormedApiKey("")).toBe(false);
    expect(splitApiKey(`${ZERO_KEY.slice(0, 38)}2wjyrJ`)).toBeNull();
  });

  it("rejects every key with one character changed", () => {
    const charArb = fc.constantFrom(...`${BASE62_ALPHABET}_-.`);
    fc.assert(
      fc.property(keyArb, fc.nat({ max: 43 }), charArb, (key, position, char) => {
        fc.pre(key[position] !== char);
        const changed = key.slice(0, position) + char + key.slice(position + 1);
        expect(isWellFormedApiKey(changed)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("hashApiKey", () => {
  it("is the SHA-256 hex of the whole key", () => {
    expect(hashApiKey(ZERO_KEY)).toBe(sha256Hex(ZERO_KEY));
    expect(hashApiKey(ZERO_KEY)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(ZERO_KEY)).not.toBe(hashApiKey(ZERO_KEY.slice(6)));
  });
});

describe("parseBearerToken", () => {
  it("reads the token whatever the scheme's case and the spacing", () => {
    expect(parseBearerToken(`Bearer ${ZERO_KEY}`)).toBe(ZERO_KEY);
    expect(parseBearerToken(`bearer ${ZERO_KEY}`)).toBe(ZERO_KEY);
    expect(parseBearerToken(`BEARER ${ZERO_KEY}`)).toBe(ZERO_KEY);
    expect(parseBearerToken(`  Bearer \t  ${ZERO_KEY}  `)).toBe(ZERO_KEY);
  });

  it("returns null for a missing header, another scheme or a bad token", () => {
    for (const header of [
      undefined,
      "",
      "   ",
      "Bearer",
      "Bearer   ",
      `Basic ${ZERO_KEY}`,
      "Bearer a b",
      `Bearer${ZERO_KEY}`,
    ]) {
      expect(parseBearerToken(header), String(header)).toBeNull();
    }
  });
});
