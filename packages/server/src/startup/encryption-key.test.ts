import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Config, loadConfig } from "./config.js";
import { encryptionKeyId, loadTokenCipher, readOrCreateKeyFile } from "./encryption-key.js";

const scratch = mkdtempSync(join(tmpdir(), "kopek-key-"));
let n = 0;
const freshPath = () => join(scratch, `dir-${++n}`, "encryption.key");
const configWith = (env: Record<string, string>): Config => loadConfig(env)._unsafeUnwrap();

describe("the encryption key file", () => {
  it("is created with a random 32-byte key, mode 0600, and read back on the next start", async () => {
    const path = freshPath();
    const first = (await readOrCreateKeyFile(path))._unsafeUnwrap();
    expect(first.created).toBe(true);
    expect(first.key).toHaveLength(32);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const second = (await readOrCreateKeyFile(path))._unsafeUnwrap();
    expect(second).toEqual({ key: first.key, created: false });
  });

  it("is created once when many starters race: every one gets the winner's key", async () => {
    const path = freshPath();
    const results = await Promise.all(Array.from({ length: 20 }, () => readOrCreateKeyFile(path)));
    const keys = new Set(results.map((result) => result._unsafeUnwrap().key.toString("hex")));
    expect(keys.size).toBe(1);
    expect(results.filter((result) => result._unsafeUnwrap().created)).toHaveLength(1);
    expect(Buffer.from((await readFile(path, "utf8")).trim(), "base64").toString("hex")).toBe([...keys][0]);
  });

  it("that does not hold a key stops the start with a line naming the file, not its contents", async () => {
    const path = join(scratch, "bad.key");
    await writeFile(path, "c2hvcnQtc2VjcmV0\n", { mode: 0o600 });
    const error = (await readOrCreateKeyFile(path))._unsafeUnwrapErr();
    expect(error).toMatch(new RegExp(`^KOPEK_ENCRYPTION_KEY_FILE ${path}: encryption key must be 32 bytes`));
    expect(error).not.toContain("c2hvcnQ");
  });

  it("that others may read stops the start, naming the file and the fix, never the key", async () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const path = join(scratch, `open-${mode.toString(8)}.key`);
      const key = randomBytes(32).toString("base64");
      await writeFile(path, `${key}\n`, { mode: 0o600 });
      await chmod(path, mode);
      const error = (await readOrCreateKeyFile(path))._unsafeUnwrapErr();
      expect(error).toBe(
        `KOPEK_ENCRYPTION_KEY_FILE ${path} is open to other users; allow only its owner (chmod 600 ${path}) or use KOPEK_ENCRYPTION_KEY`,
      );
      await chmod(path, 0o600);
      expect((await readOrCreateKeyFile(path))._unsafeUnwrap().key.toString("base64")).toBe(key);
    }
  });
});

describe("loadTokenCipher", () => {
  it("uses KOPEK_ENCRYPTION_KEY when set: no file, no warning; the key id is derived from the key", async () => {
    const key = randomBytes(32);
    const path = freshPath();
    const warnings: string[] = [];
    const config = configWith({
      KOPEK_ENCRYPTION_KEY: key.toString("base64"),
      KOPEK_ENCRYPTION_KEY_FILE: path,
    });
    const cipher = (await loadTokenCipher(config, (w) => warnings.push(w)))._unsafeUnwrap();
    expect(cipher.currentKeyId).toBe(encryptionKeyId(key));
    expect(cipher.currentKeyId).toMatch(/^[0-9a-f]{8}$/);
    expect(warnings).toEqual([]);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it("falls back to the key file with one warning that names no key", async () => {
    const path = freshPath();
    const warnings: string[] = [];
    const cipher = (
      await loadTokenCipher(configWith({ KOPEK_ENCRYPTION_KEY_FILE: path }), (w) => warnings.push(w))
    )._unsafeUnwrap();
    const key = Buffer.from((await readFile(path, "utf8")).trim(), "base64");
    expect(cipher.currentKeyId).toBe(encryptionKeyId(key));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("production");
    expect(warnings[0]).not.toContain(key.toString("base64"));
  });

  it("decrypts with KOPEK_ENCRYPTION_OLD_KEYS after a rotation, and encrypts with the new key", async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = (
      await loadTokenCipher(configWith({ KOPEK_ENCRYPTION_KEY: oldKey.toString("base64") }), () => {})
    )._unsafeUnwrap();
    const sealed = before.encrypt("pm_secret", "sub_1");
    const rotated = configWith({
      KOPEK_ENCRYPTION_KEY: newKey.toString("base64"),
      KOPEK_ENCRYPTION_OLD_KEYS: `${oldKey.toString("base64")},${newKey.toString("base64")}`,
    });
    const after = (await loadTokenCipher(rotated, () => {}))._unsafeUnwrap();
    expect(after.decrypt(sealed, "sub_1")).toBe("pm_secret");
    expect(after.keyIdOf(after.encrypt("pm_new", "sub_2"))).toBe(encryptionKeyId(newKey));
  });
});
