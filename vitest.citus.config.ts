import { defineConfig } from "vitest/config";
import { STORAGE_SHARDED_SUITE } from "./vitest.shared.js";

/**
 * `pnpm proof:citus` (scripts/proof-citus.mjs, which starts the Citus cluster and sets
 * TEST_DATABASE_SCHEMA=citus and TEST_DATABASE_URL to its coordinator): storage-postgres's sharded
 * suite, then the server's tests that race several processes or sessions on one PostgreSQL database.
 * Each file's database is sharded by project_id, and a statement touching several shards fails.
 */
const SERVER_FILES = [
  "cli-migrate-citus.citus.ts",
  ...[
    "postgres-processes",
    "renewal-workers",
    "rate-limits-processes",
    "webhook-postgres",
    "renewals-e2e",
    "checkout-crash",
    "renewal-crash",
  ].map((name) => `${name}.test.ts`),
].map((file) => `packages/server/test/${file}`);

// As packages/server/vitest.config.ts: the tests' webhook receivers and provider emulators are local.
process.env.KOPEK_WEBHOOKS_ALLOW_LOCAL ??= "on";
process.env.KOPEK_PROVIDERS_ALLOW_LOCAL ??= "on";

export default defineConfig({
  resolve: { conditions: ["dev-source"] },
  ssr: { resolve: { conditions: ["dev-source"] } },
  test: {
    name: "citus",
    include: [...STORAGE_SHARDED_SUITE.map((file) => `packages/storage-postgres/${file}`), ...SERVER_FILES],
    environment: "node",
    // Closing a database drops it on three nodes; the tests keep their own time limits.
    hookTimeout: 60_000,
  },
});
