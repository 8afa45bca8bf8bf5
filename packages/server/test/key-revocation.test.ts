import { hashApiKey } from "@kopek/core";
import { createPostgresStorage, createTokenCipher } from "@kopek/storage-postgres";
import { afterAll, expect, test } from "vitest";
import { buildTestApp, invoiceBody } from "./helper.js";
import { openServerTestDatabase } from "./postgres-database.js";

/**
 * The documented bound on key revocation (docs/reliability.md): 0 seconds. No instance caches keys;
 * every request looks its key's hash up in storage, so the first request after the revocation
 * commits is refused by every instance. If an auth cache is ever added, this test is what must change
 * with the documented bound.
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

test("a revoked key is refused by every instance on its very next request (bound: 0 s, no auth cache)", async () => {
  const a = await buildTestApp({ storage: storageOn(poolA) });
  const b = await buildTestApp({ storage: storageOn(poolB) });
  const apiKey = a.apiKey; // issued through instance A, stored in the shared database
  for (const instance of [a, b]) {
    const response = await instance.inject({
      method: "POST",
      url: "/v1/invoices",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      payload: JSON.stringify(invoiceBody()),
    });
    expect(response.statusCode).toBe(201);
  }

  // The operator revokes the key (kopek keys revoke does exactly this) on a third connection.
  expect((await storageOn(poolAdmin).revokeApiKey(hashApiKey(apiKey), new Date()))._unsafeUnwrap()).toBe(
    true,
  );
  const revokedAt = Date.now();
  const firstAnswers = await Promise.all([a.get("/v1/invoices", apiKey), b.get("/v1/invoices", apiKey)]);
  const refusedWithinMs = Date.now() - revokedAt;
  console.info(
    `key revocation: refused by both instances on their first request (${refusedWithinMs} ms after)`,
  );
  // The very first request to each instance after the commit is refused: nothing waits for a cache to expire.
  expect(firstAnswers.map((response) => response.statusCode)).toEqual([401, 401]);
  expect(firstAnswers.map((response) => response.headers["www-authenticate"])).toEqual(["Bearer", "Bearer"]);
  await Promise.all([a.app.close(), b.app.close()]);
});
