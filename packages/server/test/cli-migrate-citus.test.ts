import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { kopekOn } from "./cli-in-process.js";

// `kopek migrate --citus` (issue 40) where the database has no Citus (`pnpm test`): the command
// migrates, then refuses to distribute in one line. On a Citus coordinator: cli-migrate-citus.citus.ts,
// run by `pnpm proof:citus`.
const db = await openTestDatabase();
afterAll(() => db.close());

const kopek = (...argv: string[]) => kopekOn(db, argv);

describe(`kopek migrate --citus (${db.backend}, no Citus)`, () => {
  it("--citus belongs to migrate only", async () => {
    const result = await kopek("projects", "list", "--citus");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^kopek: --citus is an option of migrate only\n/);
  });

  it("without the citus extension: migrates, then refuses to distribute, exit 1", async () => {
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
});
