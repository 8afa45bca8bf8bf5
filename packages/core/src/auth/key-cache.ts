import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Storage } from "../ports/storage.js";
import { hashApiKey, isWellFormedApiKey, parseBearerToken } from "./api-key.js";
import { type AuthContext, lookUpKey } from "./look-up-key.js";

/** How many keys a Kopek instance remembers, and for how long (a project's changed settings show within it). */
export const KEY_CACHE_MAX_ENTRIES = 10_000;
export const KEY_CACHE_TTL_MS = 30_000;
/**
 * How long a well-formed key that storage does not know is answered 401 without another lookup: a flood
 * of made-up keys then costs one SHA-256 and one query per key and period, not per request. Short,
 * because a key is unknown until it is created (a random key is practically never tried before that).
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;

interface Entry {
  readonly auth: AuthContext;
  readonly expiresAt: number;
}

/**
 * Key lookups, remembered: a request with a key seen in the last `KEY_CACHE_TTL_MS` skips the hash and
 * the storage lookup. A remembered context is never trusted on its own to have a key that is still
 * valid: the write's idempotency claim checks the key in the same atomic step (`apiKeyId`), and every
 * other answer re-checks it first (`confirm`), so a revoked key is refused on its very next request,
 * on every instance, as without the cache. Keys live here as given, in this process only; at most
 * `KEY_CACHE_MAX_ENTRIES` (the whole cache is dropped when full, never grown).
 */
export class KeyCache {
  readonly #entries = new Map<string, Entry>();
  /** Well-formed keys storage did not know, and until when that answer stands. */
  readonly #unknown = new Map<string, number>();
  /** The contexts this cache hands out, with their key and its SHA-256, for `confirm` and `forget`. */
  readonly #remembered = new WeakMap<AuthContext, { readonly token: string; readonly sha256: string }>();

  constructor(
    private readonly storage: Storage,
    private readonly nowMs: () => number,
  ) {}

  /** Authenticates an Authorization header, from the cache when it can. */
  async authenticate(authorization: string | undefined): Promise<Result<AuthContext, KopekError>> {
    const token = parseBearerToken(authorization);
    if (token === null) return err({ code: "unauthorized" });
    const now = this.nowMs();
    // Only well-formed keys are ever remembered, so a hit needs no checksum.
    const entry = this.#entries.get(token);
    if (entry !== undefined && entry.expiresAt > now) return ok(entry.auth);
    if (!isWellFormedApiKey(token)) return err({ code: "unauthorized" });
    if ((this.#unknown.get(token) ?? 0) > now) return err({ code: "unauthorized" });
    const sha256 = hashApiKey(token);
    const fresh = await lookUpKey(this.storage, sha256);
    if (fresh.isErr()) {
      if (entry !== undefined) this.#entries.delete(token);
      if (fresh.error.code === "unauthorized") this.#rememberUnknown(token, now);
      return fresh;
    }
    this.#unknown.delete(token);
    if (this.#entries.size >= KEY_CACHE_MAX_ENTRIES) this.#entries.clear();
    // The remembered context itself is handed out, so a later `confirm` of it looks the key up again.
    const remembered: AuthContext = { ...fresh.value };
    this.#remembered.set(remembered, { token, sha256 });
    this.#entries.set(token, { auth: remembered, expiresAt: now + KEY_CACHE_TTL_MS });
    return ok(remembered);
  }

  #rememberUnknown(token: string, now: number): void {
    if (this.#unknown.size >= KEY_CACHE_MAX_ENTRIES) this.#unknown.clear();
    this.#unknown.set(token, now + UNKNOWN_KEY_TTL_MS);
  }

  /** The context again if its key still holds: a remembered one is looked up afresh, any other is returned as it is. */
  async confirm(auth: AuthContext): Promise<Result<AuthContext, KopekError>> {
    const key = this.#remembered.get(auth);
    if (key === undefined) return ok(auth);
    const fresh = await lookUpKey(this.storage, key.sha256);
    if (fresh.isErr()) this.forget(auth);
    return fresh;
  }

  /** Drops a remembered context whose key turned out to be revoked. */
  forget(auth: AuthContext): void {
    const key = this.#remembered.get(auth);
    if (key !== undefined && this.#entries.get(key.token)?.auth === auth) this.#entries.delete(key.token);
  }
}
