// @kopek/testing's fixtures by path: that package depends on core, so core cannot depend on it.

import { okAsync } from "neverthrow";
import { describe, expect, it } from "vitest";
import { sampleProject } from "../../../testing/src/fixtures.js";
import type { Storage } from "../ports/storage.js";
import { generateApiKey, hashApiKey } from "./api-key.js";
import { KeyCache, UNKNOWN_KEY_TTL_MS } from "./key-cache.js";

/** Just the key lookup of a storage: live keys by hash, and how often it was asked. */
function keyStorage() {
  const project = sampleProject();
  const live = new Map<string, string>();
  let lookups = 0;
  const storage = {
    findProjectByKeyHash: (sha256: string) => {
      lookups++;
      const keyId = live.get(sha256);
      return okAsync(keyId === undefined ? null : { project, keyId });
    },
  } as unknown as Storage;
  return { storage, live, lookups: () => lookups };
}

describe("KeyCache", () => {
  it("re-checks on confirm a context it has just looked up: a key revoked since gets 401", async () => {
    const { storage, live } = keyStorage();
    const key = generateApiKey();
    live.set(hashApiKey(key), "key-1");
    const cache = new KeyCache(storage, () => 0);
    const auth = await cache.authenticate(`Bearer ${key}`); // a miss: looked up now
    expect(auth.isOk()).toBe(true);
    live.delete(hashApiKey(key)); // revoked
    const confirmed = await cache.confirm(auth._unsafeUnwrap());
    expect(confirmed._unsafeUnwrapErr().code).toBe("unauthorized");
    expect((await cache.authenticate(`Bearer ${key}`))._unsafeUnwrapErr().code).toBe("unauthorized");
  });

  it("answers an unknown well-formed key from memory for a few seconds, then asks storage again", async () => {
    const { storage, live, lookups } = keyStorage();
    const key = generateApiKey();
    let now = 1_000_000;
    const cache = new KeyCache(storage, () => now);
    for (let i = 0; i < 50; i++) {
      expect((await cache.authenticate(`Bearer ${key}`))._unsafeUnwrapErr().code).toBe("unauthorized");
    }
    expect(lookups()).toBe(1);
    live.set(hashApiKey(key), "key-1"); // created after it was tried
    now += UNKNOWN_KEY_TTL_MS;
    expect((await cache.authenticate(`Bearer ${key}`)).isOk()).toBe(true);
    expect(lookups()).toBe(2);
  });
});
