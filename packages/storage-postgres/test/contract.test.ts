import { describeStorageContract } from "@kopek/testing";
import { afterAll } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// One database for the whole suite: the contract uses random ids and keys, so tests never collide,
// except through renewal claims, which see every project. The lifecycle contract spreads its due
// times over random past decades, but a test whose instant falls after an earlier test's would claim
// that test's leftovers (about half the runs), so every test starts without subscriptions.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

async function freshStorage() {
  await db.pool.query("TRUNCATE subscriptions");
  return createPostgresStorage({ pool: db.pool, encryption: testCipher() });
}

describeStorageContract(`postgres (${db.backend})`, freshStorage, {
  encryptsMethodTokens: true,
});
