import { describeKopekContract } from "@kopek/testing";
import { afterAll } from "vitest";
import { sandboxContractProvider } from "../../provider-sandbox/test/contract-provider.js";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// Kopek's use cases end to end over the adapter's real SQL. This suite inspects whole tables, so
// each test starts from empty tables (tests in a file run one after another).
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

async function freshStorage() {
  await db.pool.query(
    "TRUNCATE projects, api_keys, idempotency_records, subscriptions, invoices, payments, refunds, customers, events, webhook_endpoints, webhook_deliveries, webhook_delivery_attempts",
  );
  return createPostgresStorage({ pool: db.pool, encryption: testCipher() });
}

describeKopekContract(`postgres (${db.backend}) storage and the sandbox`, {
  createStorage: freshStorage,
  createProvider: sandboxContractProvider,
  declinedRef: "sandbox_decline_contract",
});
