import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTokenCipher, parseEncryptionKey } from "./token-cipher.js";

const oldKey = { id: "2026-01", key: randomBytes(32) };
const newKey = { id: "2026-11", key: randomBytes(32) };

describe("createTokenCipher", () => {
  it("round-trips a token, and never writes it in the clear", () => {
    const cipher = createTokenCipher({ keys: [newKey], currentKeyId: newKey.id });
    const token = "pm_sandbox_Привет_🌍";
    const sealed = cipher.encrypt(token, "sub-1");
    expect(sealed.includes(Buffer.from(token))).toBe(false);
    expect(cipher.decrypt(sealed, "sub-1")).toBe(token);
    expect(cipher.keyIdOf(sealed)).toBe("2026-11");
  });

  it("uses a fresh IV each time", () => {
    const cipher = createTokenCipher({ keys: [newKey], currentKeyId: newKey.id });
    expect(cipher.encrypt("same", "ctx").equals(cipher.encrypt("same", "ctx"))).toBe(false);
  });

  it("rotates: reads tokens written under the old key, writes new ones under the current key", () => {
    const before = createTokenCipher({ keys: [oldKey], currentKeyId: oldKey.id });
    const after = createTokenCipher({ keys: [oldKey, newKey], currentKeyId: newKey.id });
    const sealedBefore = before.encrypt("pm_old", "sub-1");
    expect(after.decrypt(sealedBefore, "sub-1")).toBe("pm_old");
    const sealedAfter = after.encrypt("pm_new", "sub-2");
    expect(after.keyIdOf(sealedAfter)).toBe(newKey.id);
    expect(() => before.decrypt(sealedAfter, "sub-2")).toThrow(/no encryption key "2026-11"/);
  });

  it("detects any flipped byte: header, IV, ciphertext or tag", () => {
    const cipher = createTokenCipher({ keys: [oldKey, newKey], currentKeyId: newKey.id });
    const sealed = cipher.encrypt("pm_secret", "sub-1");
    for (let index = 0; index < sealed.length; index++) {
      const tampered = Buffer.from(sealed);
      tampered[index] = (tampered[index] ?? 0) ^ 0x01;
      expect(() => cipher.decrypt(tampered, "sub-1"), `byte ${index}`).toThrow(/storage-postgres/);
    }
  });

  it("refuses a ciphertext moved to another row (the context is authenticated)", () => {
    const cipher = createTokenCipher({ keys: [newKey], currentKeyId: newKey.id });
    const sealed = cipher.encrypt("pm_secret", "sub-1");
    expect(() => cipher.decrypt(sealed, "sub-2")).toThrow(/failed authentication/);
  });

  it("refuses truncated or foreign data", () => {
    const cipher = createTokenCipher({ keys: [newKey], currentKeyId: newKey.id });
    const sealed = cipher.encrypt("pm_secret", "sub-1");
    expect(() => cipher.decrypt(sealed.subarray(0, 20), "sub-1")).toThrow(/truncated/);
    expect(() => cipher.decrypt(Buffer.from("plain text"), "sub-1")).toThrow(/unknown ciphertext format/);
  });

  it("rejects bad key sets at construction", () => {
    expect(() => createTokenCipher({ keys: [{ id: "k", key: randomBytes(16) }], currentKeyId: "k" })).toThrow(
      /must be 32 bytes, got 16/,
    );
    expect(() => createTokenCipher({ keys: [newKey], currentKeyId: "missing" })).toThrow(
      /not among the keys/,
    );
    expect(() => createTokenCipher({ keys: [newKey, newKey], currentKeyId: newKey.id })).toThrow(/twice/);
    expect(() =>
      createTokenCipher({ keys: [{ id: "no spaces", key: randomBytes(32) }], currentKeyId: "no spaces" }),
    ).toThrow(/key id/);
  });
});

describe("parseEncryptionKey", () => {
  it("accepts base64 of exactly 32 bytes", () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString("base64")).equals(key)).toBe(true);
    expect(parseEncryptionKey(` ${key.toString("base64")}\n`).equals(key)).toBe(true);
  });

  it.each([
    ["16 bytes", randomBytes(16).toString("base64"), /must be 32 bytes, got 16/],
    ["33 bytes", randomBytes(33).toString("base64"), /must be 32 bytes, got 33/],
    ["empty", "", /base64/],
    ["not base64", "this is not a key!", /base64/],
    ["hex", randomBytes(32).toString("hex"), /must be 32 bytes, got 48/],
  ])("rejects %s with a message that never echoes the value", (_, value, message) => {
    let thrown: unknown;
    try {
      parseEncryptionKey(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(message);
    if (value !== "") expect((thrown as Error).message).not.toContain(value);
  });
});
