import { describeStorageContract } from "@kopek/core/testing";
import { afterAll } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// One database for the whole suite: the contract uses random ids and keys, so tests never collide.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

describeStorageContract(
  `postgres (${db.backend})`,
  () => createPostgresStorage({ pool: db.pool, encryption: testCipher() }),
  {
    encryptsMethodTokens: true,
  },
);
