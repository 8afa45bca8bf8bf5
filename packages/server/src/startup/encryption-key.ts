import { createHash, randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
  createTokenCipher,
  type EncryptionKey,
  parseEncryptionKey,
  type TokenCipher,
} from "@kopek/storage-postgres";
import { err, ok, type Result } from "neverthrow";
import type { Config } from "./config.js";
import { isPrivateFile, openFileProblem } from "./private-file.js";

/** A key's id, stored beside each ciphertext: derived from the key, so no one has to name keys. */
export function encryptionKeyId(key: Uint8Array): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/**
 * The cipher for method tokens at rest: KOPEK_ENCRYPTION_KEY encrypts, it and KOPEK_ENCRYPTION_OLD_KEYS
 * decrypt. Without KOPEK_ENCRYPTION_KEY the key comes from the key file (created on first start), so
 * `DATABASE_URL=… pnpm start` works for a newcomer; `warn` is then called once. Never logs a key.
 */
export async function loadTokenCipher(
  config: Config,
  warn: (message: string) => void,
): Promise<Result<TokenCipher, string>> {
  return (await loadEncryption(config, warn)).map(({ cipher }) => cipher);
}

/** `loadTokenCipher`, and the current key itself, from which the server derives other secrets. */
export async function loadEncryption(
  config: Config,
  warn: (message: string) => void,
): Promise<Result<{ cipher: TokenCipher; currentKey: Buffer }, string>> {
  let current = config.encryptionKey;
  if (current === null) {
    const fromFile = await readOrCreateKeyFile(config.encryptionKeyFile);
    if (fromFile.isErr()) return err(fromFile.error);
    current = fromFile.value.key;
    warn(
      `KOPEK_ENCRYPTION_KEY is not set: method tokens are encrypted with the key ${fromFile.value.created ? "just created in" : "in"} ` +
        `${config.encryptionKeyFile}. In production set KOPEK_ENCRYPTION_KEY, the same key on every instance.`,
    );
  }
  const keys = new Map<string, EncryptionKey>();
  for (const key of [current, ...config.encryptionOldKeys]) {
    const id = encryptionKeyId(key);
    if (!keys.has(id)) keys.set(id, { id, key });
  }
  const cipher = createTokenCipher({ keys: [...keys.values()], currentKeyId: encryptionKeyId(current) });
  return ok({ cipher, currentKey: current });
}

/**
 * Reads the key file, or creates it with a random key (mode 0600). Creation is atomic: the key is
 * written to a private temporary file that is then hard-linked to `path`, which fails when `path`
 * exists (the O_EXCL of a complete file). A process that loses that race reads the winner's key, and
 * no process ever reads a half-written file.
 */
export async function readOrCreateKeyFile(
  path: string,
): Promise<Result<{ key: Buffer; created: boolean }, string>> {
  const existing = await readKeyFile(path);
  if (existing.isOk() || existing.error !== "missing")
    return existing.map((key) => ({ key, created: false }));
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let created = false;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    await link(temporary, path);
    created = true;
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== "EEXIST")
      return err(`KOPEK_ENCRYPTION_KEY_FILE ${path} cannot be created (${code ?? "error"})`);
  } finally {
    await unlink(temporary).catch(() => {});
  }
  const key = await readKeyFile(path);
  if (key.isErr())
    return err(key.error === "missing" ? `KOPEK_ENCRYPTION_KEY_FILE ${path} vanished` : key.error);
  return ok({ key: key.value, created });
}

async function readKeyFile(path: string): Promise<Result<Buffer, string>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return err(
      code === "ENOENT" ? "missing" : `KOPEK_ENCRYPTION_KEY_FILE ${path} cannot be read (${code ?? "error"})`,
    );
  }
  let key: Buffer;
  try {
    key = parseEncryptionKey(text);
  } catch (cause) {
    return err(`KOPEK_ENCRYPTION_KEY_FILE ${path}: ${(cause as Error).message}`);
  }
  return (await isPrivateFile(path))
    ? ok(key)
    : err(`KOPEK_ENCRYPTION_KEY_FILE ${path} ${openFileProblem(path, "KOPEK_ENCRYPTION_KEY")}`);
}
