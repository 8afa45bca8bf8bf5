import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseSchema } from "../../storage-postgres/test/database.js";
import { kopekOn } from "./cli-in-process.js";

// `kopek migrate --citus` (issue 40). In `pnpm test` the database has no Citus: the command migrates,
// then refuses to distribute in one line. In `pnpm proof:citus` (TEST_DATABASE_SCHEMA=citus) the
// harness has already distributed the database with the same function: the command finds nothing to
// do, and the coordinator's catalog shows what it made.
const citus = testDatabaseSchema() === "citus";
const db = await openTestDatabase();
afterAll(() => db.close());

const kopek = (...argv: string[]) => kopekOn(db, argv);

describe(`kopek migrate --citus (${citus ? "Citus coordinator" : db.backend})`, () => {
  it("--citus belongs to migrate only", async () => {
    const result = await kopek("projects", "list", "--citus");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^kopek: --citus is an option of migrate only\n/);
  });

  it.runIf(!citus)("without the citus extension: migrates, then refuses to distribute, exit 1", async () => {
    const result = await kopek("migrate", "--citus");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^applied 0001_initial\n/);
    expect(result.stderr).toBe(
      "kopek: migrate --citus failed: storage-postgres: the citus extension is not installed in this " +
        "database; run CREATE EXTENSION citus on the coordinator (and add its workers) first\n",
    );
    // The schema stays migrated and usable without Citus.
    expect((await kopek("migrate")).stdout).toBe("The database schema is current: nothing to apply.\n");
  });

  it.runIf(citus)("on a distributed database: nothing to do; reference and colocated tables", async () => {
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
        "events",
        "idempotency_records",
        "invoices",
        "payments",
        "refunds",
        "subscriptions",
        "webhook_deliveries",
        "webhook_endpoints",
      ].sort(),
    );
    expect(new Set(hashed.map((row) => row.colocation)).size).toBe(1);
    // The migrations' ledger and the rate limiter's table stay local to the coordinator.
    expect(rows.map((row) => row.name)).not.toContain("kopek_migrations");
  });
});
