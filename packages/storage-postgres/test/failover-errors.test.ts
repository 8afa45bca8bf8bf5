import { afterAll, describe, expect, it } from "vitest";
import { createSqlContext } from "../src/sql-context.js";
import { toStorageError } from "../src/storage-errors.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// Issue 40: during a failover a connection can reach a server that is not (or no longer) the
// primary; every write there fails with 25006. That is `storage_unavailable` (503, retry-safe), and
// the connection must leave the pool, or every later transaction on it fails the same way after the
// new primary is up. A session made read-only stands for such a server.
const db = await openTestDatabase();
afterAll(() => db.close());

describe("a connection to a server that is not the primary", () => {
  it.runIf(db.isRealServer)(
    "fails the transaction as storage_unavailable and is dropped: the next one connects afresh and commits",
    async () => {
      const pool = db.newPool({ max: 1 });
      await pool.query("CREATE TABLE failover_probe (n int)");
      const sql = createSqlContext(pool, testCipher(), 3);
      const insert = (n: number) =>
        sql.transaction((q) => q("failover_probe_insert", "INSERT INTO failover_probe VALUES ($1)", [n]));
      // The pool's one connection now behaves as a demoted primary's.
      await pool.query("SET SESSION default_transaction_read_only = on");

      const failed = await insert(1).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toMatchObject({ code: "25006" });
      expect(toStorageError("savePayment", failed).code).toBe("storage_unavailable");

      await insert(2);
      const { rows } = await pool.query("SELECT n FROM failover_probe ORDER BY n");
      expect(rows).toEqual([{ n: 2 }]);
    },
  );
});
