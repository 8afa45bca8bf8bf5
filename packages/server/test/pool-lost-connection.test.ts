import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { openPool } from "../src/startup/storage.js";

// A connection the server ends while it is checked out and no statement runs on it — as a backend does
// when its postmaster dies in a failover — must not end the process (the failover proof saw a
// `kopek worker` die of "Unhandled 'error' event" this way). Real server only: PGlite has no backends.
const db = await openTestDatabase();
afterAll(() => db.close());

describe(`the server's pool on ${db.backend}`, () => {
  it.runIf(db.isRealServer)(
    "survives a checked-out connection terminated by the server, and goes on serving (real server only)",
    async () => {
      const pool = openPool(db.url ?? "");
      const uncaught: unknown[] = [];
      const hear = (error: unknown) => uncaught.push(error);
      process.on("uncaughtException", hear);
      try {
        const client = await pool.connect();
        const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        // Checked out, nothing in flight, no listener of the caller's: the worker's connection then.
        await db.pool.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(uncaught).toEqual([]);
        client.release(true);
        expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      } finally {
        process.off("uncaughtException", hear);
        await pool.end();
      }
    },
  );
});
