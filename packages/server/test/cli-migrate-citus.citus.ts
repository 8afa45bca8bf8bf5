import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseSchema } from "../../storage-postgres/test/database.js";
import { kopekOn } from "./cli-in-process.js";

// `kopek migrate --citus` on a Citus coordinator (issue 40), run by `pnpm proof:citus` only
// (vitest.citus.config.ts; TEST_DATABASE_SCHEMA=citus). The harness has already distributed the
// database with the same function: the command finds nothing to do, and the coordinator's catalog
// shows what it made. Without Citus: cli-migrate-citus.test.ts.
if (testDatabaseSchema() !== "citus") throw new Error("run by pnpm proof:citus (TEST_DATABASE_SCHEMA=citus)");
const db = await openTestDatabase();
afterAll(() => db.close());

const kopek = (...argv: string[]) => kopekOn(db, argv);

describe("kopek migrate --citus (Citus coordinator)", () => {
  it("on a distributed database: nothing to do; reference and colocated tables", async () => {
    expect(await kopek("migrate", "--citus")).toEqual({
      code: 0,
      stdout:
        "The database schema is current: nothing to apply.\n" +
        "Citus: every table is already distributed: nothing to do.\n",
      stderr: "",
    });
    const { rows } = await db.pool.query<{ name: string; method: string; colocation: number }>(
      `SELECT logicalrelid::regclass::text AS name, partmethod AS method, colocationid AS colocation
         FROM pg_dist_partition ORDER BY 1`,
    );
    const reference = rows.filter((row) => row.method === "n").map((row) => row.name);
    const hashed = rows.filter((row) => row.method === "h");
    expect(reference).toEqual(["api_keys", "projects"]);
    expect(hashed.map((row) => row.name).sort()).toEqual(
      [
        "customers",
        "events",
        "idempotency_records",
        "invoices",
        "payments",
        "refunds",
        "subscriptions",
        "webhook_deliveries",
        "webhook_delivery_attempts",
        "webhook_endpoints",
      ].sort(),
    );
    expect(new Set(hashed.map((row) => row.colocation)).size).toBe(1);
    // The migrations' ledger and the rate limiter's table stay local to the coordinator.
    expect(rows.map((row) => row.name)).not.toContain("kopek_migrations");
  });
});
