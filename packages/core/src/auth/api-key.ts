import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { sha256Hex } from "../crypto/sha256.js";

export const API_KEY_PREFIX = "kopek_";
export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const RANDOM_START = API_KEY_PREFIX.length;
const CHECKSUM_START = RANDOM_START + RANDOM_LENGTH;
const KEY_LENGTH = CHECKSUM_START + CHECKSUM_LENGTH;
// 248 = 4 × 62: bytes at or above it are thrown away so every character is equally likely.
const UNBIASED_LIMIT = 248;

// Character code → base62 digit value, -1 for anything else; a table keeps validation allocation-free.
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE62_ALPHABET.length; i++) DIGIT_VALUE[BASE62_ALPHABET.charCodeAt(i)] = i;

/** The two parts of a key after its `kopek_` prefix. */
export interface ApiKeyParts {
  readonly random: string;
  readonly checksum: string;
}

/** The CRC-32 (zlib/IEEE) of the random part, as 6 base62 digits, most significant first. */
export function apiKeyChecksum(random32: string): string {
  let value = crc32(random32);
  let digits = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    digits = BASE62_ALPHABET.charAt(value % 62) + digits;
    value = Math.floor(value / 62);
  }
  return digits;
}

/** A new API key: `kopek_`, 32 uniformly random base62 characters (about 190 bits), the checksum. */
export function generateApiKey(
  randomBytes: (size: number) => Uint8Array = (size) => cryptoRandomBytes(size),
): string {
  let random = "";
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH * 2)) {
      if (byte < UNBIASED_LIMIT && random.length < RANDOM_LENGTH) random += BASE62_ALPHABET.charAt(byte % 62);
    }
  }
  return API_KEY_PREFIX + random + apiKeyChecksum(random);
}

/**
 * Whether the key has the prefix, the length, the alphabet and a matching checksum. Runs before any
 * storage lookup on every request, so it decodes the checksum to a number instead of building strings.
 */
export function isWellFormedApiKey(key: string): boolean {
  if (typeof key !== "string" || key.length !== KEY_LENGTH || !key.startsWith(API_KEY_PREFIX)) return false;
  for (let i = RANDOM_START; i < CHECKSUM_START; i++) {
    if ((DIGIT_VALUE[key.charCodeAt(i)] ?? -1) < 0) return false;
  }
  let checksum = 0;
  for (let i = CHECKSUM_START; i < KEY_LENGTH; i++) {
    const digit = DIGIT_VALUE[key.charCodeAt(i)] ?? -1;
    if (digit < 0) return false;
    checksum = checksum * 62 + digit;
  }
  return checksum === crc32(key.slice(RANDOM_START, CHECKSUM_START));
}

/** The random part and checksum of a well-formed key; null for anything else. */
export function splitApiKey(key: string): ApiKeyParts | null {
  if (!isWellFormedApiKey(key)) return null;
  return { random: key.slice(RANDOM_START, CHECKSUM_START), checksum: key.slice(CHECKSUM_START) };
}

/** What storage keeps instead of the key: the SHA-256 hex of the whole key. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

const BEARER = /^bearer[ \t]+(\S+)$/i;

/** The token of an `Authorization: Bearer <token>` header (scheme in any case); null for anything else. */
export function parseBearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  return BEARER.exec(header.trim())?.[1] ?? null;
}
