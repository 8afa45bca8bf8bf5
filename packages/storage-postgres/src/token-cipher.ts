import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Encrypts secrets at rest (the provider's method token) with AES-256-GCM.
 *
 * Layout of one ciphertext (README.md, "Encryption format"):
 *   version (1 byte, 0x01) | key id length (1 byte) | key id (UTF-8) | IV (12 bytes) | ciphertext | tag (16 bytes)
 * The header (version, key id) and the caller's `context` (e.g. the subscription id) are the GCM
 * associated data: editing the header or moving a ciphertext to another row fails authentication.
 */
export interface TokenCipher {
  /** The key new ciphertexts are written with. */
  readonly currentKeyId: string;
  encrypt(plaintext: string, context: string): Buffer;
  /** Throws when the key id is unknown or the ciphertext, header or context was tampered with. */
  decrypt(ciphertext: Uint8Array, context: string): string;
  /** The key id a ciphertext was written with (to find rows still on a retired key). */
  keyIdOf(ciphertext: Uint8Array): string;
}

export interface EncryptionKey {
  /** Short stable name stored with each ciphertext, e.g. `2026-11`. */
  readonly id: string;
  /** 32 random bytes. */
  readonly key: Uint8Array;
}

export interface TokenCipherOptions {
  /** Every key that may still be needed to decrypt; rotate by adding a key and moving `currentKeyId`. */
  readonly keys: readonly EncryptionKey[];
  readonly currentKeyId: string;
}

const VERSION = 0x01;
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function createTokenCipher(options: TokenCipherOptions): TokenCipher {
  const keys = new Map<string, Buffer>();
  for (const { id, key } of options.keys) {
    if (!KEY_ID.test(id)) throw new Error(`storage-postgres: encryption key id must match ${KEY_ID}`);
    if (key.length !== KEY_BYTES) {
      throw new Error(`storage-postgres: encryption key "${id}" must be 32 bytes, got ${key.length}`);
    }
    if (keys.has(id)) throw new Error(`storage-postgres: encryption key id "${id}" is given twice`);
    keys.set(id, Buffer.from(key));
  }
  const currentKey = keys.get(options.currentKeyId);
  if (currentKey === undefined) {
    throw new Error(
      `storage-postgres: current encryption key "${options.currentKeyId}" is not among the keys`,
    );
  }
  const currentHeader = header(options.currentKeyId);

  return {
    currentKeyId: options.currentKeyId,
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", currentKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.concat([currentHeader, Buffer.from(context, "utf8")]));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return Buffer.concat([currentHeader, iv, body, cipher.getAuthTag()]);
    },
    decrypt(ciphertext, context) {
      const data = Buffer.from(ciphertext.buffer, ciphertext.byteOffset, ciphertext.byteLength);
      const { keyId, headerLength } = readHeader(data);
      const key = keys.get(keyId);
      if (key === undefined)
        throw new Error(`storage-postgres: no encryption key "${keyId}" to decrypt with`);
      if (data.length < headerLength + IV_BYTES + TAG_BYTES) {
        throw new Error("storage-postgres: ciphertext is truncated");
      }
      const iv = data.subarray(headerLength, headerLength + IV_BYTES);
      const tag = data.subarray(data.length - TAG_BYTES);
      const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.concat([data.subarray(0, headerLength), Buffer.from(context, "utf8")]));
      decipher.setAuthTag(tag);
      try {
        const body = data.subarray(headerLength + IV_BYTES, data.length - TAG_BYTES);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
      } catch (cause) {
        throw new Error("storage-postgres: ciphertext failed authentication (tampered, or wrong key)", {
          cause,
        });
      }
    },
    keyIdOf(ciphertext) {
      return readHeader(Buffer.from(ciphertext.buffer, ciphertext.byteOffset, ciphertext.byteLength)).keyId;
    },
  };
}

/**
 * Parses a key given as base64 (e.g. `KOPEK_ENCRYPTION_KEY`; make one with `openssl rand -base64 32`).
 * Rejects anything that is not canonical base64 of exactly 32 bytes. The message never echoes the key.
 */
export function parseEncryptionKey(base64: string): Buffer {
  const text = base64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new Error("encryption key must be base64 of 32 random bytes (e.g. `openssl rand -base64 32`)");
  }
  const key = Buffer.from(text, "base64");
  if (key.length !== KEY_BYTES) {
    throw new Error(`encryption key must be 32 bytes, got ${key.length} (use \`openssl rand -base64 32\`)`);
  }
  return key;
}

function header(keyId: string): Buffer {
  const id = Buffer.from(keyId, "utf8");
  return Buffer.concat([Buffer.from([VERSION, id.length]), id]);
}

function readHeader(data: Buffer): { keyId: string; headerLength: number } {
  if (data.length < 2 || data[0] !== VERSION) {
    throw new Error("storage-postgres: unknown ciphertext format");
  }
  const idLength = data[1] ?? 0;
  const headerLength = 2 + idLength;
  if (data.length < headerLength) throw new Error("storage-postgres: ciphertext is truncated");
  return { keyId: data.subarray(2, headerLength).toString("utf8"), headerLength };
}
