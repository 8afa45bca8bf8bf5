import { type ApiKeyMatch, type ApiKeyRecord, hashApiKey, isUuid, isWellFormedApiKey } from "@kopek/core";
import { type DatabaseCommandContext, failure, storageFailure } from "./database.js";
import { usage } from "./projects-commands.js";

/** How many hex characters of a key's SHA-256 `keys list` prints. */
export const SHOWN_PREFIX = 12;
const MIN_PREFIX = 6;
const HEX = /^[0-9a-f]+$/;

/**
 * The stored key a command names: its id (a UUID), its SHA-256 or a prefix of it (at least 6 hex
 * characters; the `…` that `keys list` prints after one may be pasted along), or the key itself.
 * Else the exit code after saying why: not one of those (2), no such key (1), or a prefix that fits
 * several keys (1, naming their ids).
 */
export async function findKey(
  { storage, io }: Pick<DatabaseCommandContext, "storage" | "io">,
  command: string,
  target: string | undefined,
): Promise<ApiKeyRecord | number> {
  const match = matcherFor(target ?? "");
  if (match === null)
    return usage(
      io,
      `${command} needs a key: its id, its sha256 or a prefix of it (at least ${MIN_PREFIX} hex characters, as keys list prints it), or the key itself`,
    );
  const matched = await storage.findApiKeys(match.keys);
  if (matched.isErr()) return storageFailure(io, matched.error);
  const found = matched.value;
  const [only, ...others] = found;
  if (only === undefined) return failure(io, `no API key ${match.shown}`);
  if (others.length > 0)
    return failure(
      io,
      `${found.length} API keys have sha256 starting ${match.shown} (ids ${found.map((k) => k.id).join(", ")}): give more characters, or the key's id`,
    );
  return only;
}

// Keys are found without reading their projects, so a project's provider secret is never decrypted:
// revoking a leaked key needs no encryption key.
function matcherFor(target: string): { keys: ApiKeyMatch; shown: string } | null {
  if (isWellFormedApiKey(target)) {
    const sha256 = hashApiKey(target);
    return { keys: { sha256Prefix: sha256 }, shown: `${sha256.slice(0, SHOWN_PREFIX)}…` };
  }
  const text = target
    .trim()
    .toLowerCase()
    .replace(/(…|\.\.\.)$/, "");
  if (isUuid(text)) return { keys: { id: text }, shown: text };
  if (HEX.test(text) && text.length >= MIN_PREFIX && text.length <= 64)
    return { keys: { sha256Prefix: text }, shown: `${text}…` };
  return null;
}
