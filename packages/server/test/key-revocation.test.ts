import { hashApiKey } from "@kopek/core";
import { createPostgresStorage, createTokenCipher } from "@kopek/storage-postgres";
import { afterAll, expect, test } from "vitest";
import { buildTestApp, invoiceBody } from "./helper.js";
import { openServerTestDatabase } from "./postgres-database.js";

/**
 * The documented bound on key revocation (docs/reliability.md): 0 seconds. Each instance remembers
 * the key after its first request, but a write's claim checks the key in the same statement and a read
 * looks it up first, so the first request after the revocation commits is refused by every instance,
 * whether it writes or reads.
 */
const { db, key } = await openServerTestDatabase();
afterAll(() => db.close());

// Two instances as two servers would be: one database, each with its own connection pool (on PGlite,
// which has a single connection, they share it).
const storageOn = (pool: typeof db.pool) =>
  createPostgresStorage({
    pool,
    encryption: createTokenCipher({ keys: [{ id: "test", key }], currentKeyId: "test" }),
  });
const pools = db.isRealServer ? [db.newPool(), db.newPool(), db.newPool()] : [db.pool, db.pool, db.pool];
const [poolA, poolB, poolAdmin] = pools as [typeof db.pool, typeof db.pool, typeof db.pool];

test("a revoked key is refused by every instance on its very next request, write or read (bound: 0 s)", async () => {
  const a = await buildTestApp({ storage: storageOn(poolA) });
  const b = await buildTestApp({ storage: storageOn(poolB) });
  const apiKey = a.apiKey; // issued through instance A, stored in the shared database
  const write = (instance: typeof a) =>
    instance.inject({
      method: "POST",
      url: "/v1/invoices",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      payload: JSON.stringify(invoiceBody()),
    });
  // Each instance looks the key up once and remembers it.
  for (const instance of [a, b]) expect((await write(instance)).statusCode).toBe(201);

  // The operator revokes the key (kopek keys revoke does exactly this) on a third connection.
  expect((await storageOn(poolAdmin).revokeApiKey(hashApiKey(apiKey), new Date()))._unsafeUnwrap()).toBe(
    true,
  );
  const revokedAt = Date.now();
  // Each instance's very first request after the commit is a write: the remembered key meets the claim.
  const firstAnswers = await Promise.all([write(a), write(b)]);
  const refusedWithinMs = Date.now() - revokedAt;
  console.info(
    `key revocation: refused by both instances on their first request (${refusedWithinMs} ms after)`,
  );
  const reads = await Promise.all([a.get("/v1/invoices", apiKey), b.get("/v1/invoices", apiKey)]);
  // Nothing waits for a cache to expire.
  for (const answers of [firstAnswers, reads]) {
    expect(answers.map((response) => response.statusCode)).toEqual([401, 401]);
    expect(answers.map((response) => response.headers["www-authenticate"])).toEqual(["Bearer", "Bearer"]);
  }
  await Promise.all([a.app.close(), b.app.close()]);
});
