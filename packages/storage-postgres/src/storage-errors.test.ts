import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPostgresStorage } from "./postgres-storage.js";
import { toStorageError } from "./storage-errors.js";
import { createTokenCipher } from "./token-cipher.js";

function pgError(code: string, message = "boom") {
  return Object.assign(new Error(message), { code });
}

describe("toStorageError", () => {
  it.each([
    ["ECONNREFUSED", pgError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["57P01 admin shutdown", pgError("57P01", "terminating connection due to administrator command")],
    [
      "57P02 crash shutdown",
      pgError("57P02", "terminating connection because of crash of another server process"),
    ],
    ["57P03 cannot connect now", pgError("57P03", "the database system is starting up")],
    ["25006 read-only transaction", pgError("25006", "cannot execute INSERT in a read-only transaction")],
    ["08006 connection failure", pgError("08006")],
    ["53300 too many connections", pgError("53300")],
    ["pg's terminated connection", new Error("Connection terminated unexpectedly")],
    ["pg's pool timeout", new Error("timeout exceeded when trying to connect")],
  ])("reports %s as storage_unavailable", (_, error) => {
    expect(toStorageError("findProject", error)).toMatchObject({ code: "storage_unavailable", cause: error });
  });

  it.each([
    ["23505", "unique violation"],
    ["40001", "serialization failure"],
    ["40P01", "deadlock detected"],
    ["22P02", undefined],
  ])("reports SQLSTATE %s as storage_failed", (code, name) => {
    const error = toStorageError("saveProject", pgError(code));
    expect(error.code).toBe("storage_failed");
    expect(error.message).toMatch(/^storage-postgres: saveProject failed \(/);
    expect(error.message).toContain(name ?? code);
  });

  it("translates something that is not an Error", () => {
    expect(toStorageError("checkHealth", "weird")).toMatchObject({
      code: "storage_failed",
      message: "storage-postgres: checkHealth failed: weird",
    });
  });
});

describe("an unreachable server", () => {
  it("answers every operation with storage_unavailable instead of throwing", async () => {
    // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
    const pool = new pg.Pool({ host: "127.0.0.1", port: 9, connectionTimeoutMillis: 2000 });
    const key = Buffer.alloc(32, 7);
    const storage = createPostgresStorage({
      pool,
      encryption: createTokenCipher({ keys: [{ id: "k", key }], currentKeyId: "k" }),
    });
    try {
      const health = await storage.checkHealth();
      expect(health._unsafeUnwrapErr()).toMatchObject({ code: "storage_unavailable" });
      const lookup = await storage.findProjectByKeyHash("0".repeat(64));
      expect(lookup._unsafeUnwrapErr().message).toMatch(/^storage-postgres: findProjectByKeyHash failed/);
    } finally {
      await pool.end();
    }
  });
});
