import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../src/index.js";
import { openTestDatabase, testDatabaseSchema } from "./database.js";

const db = await openTestDatabase();
const scratch = await mkdtemp(join(tmpdir(), "kopek-migrations-"));
afterAll(async () => {
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});

const packaged = new URL("../migrations/", import.meta.url);
/** The files shipped in the package, in order, and their versions (1, 2, … with no gap). */
const FILES = (await readdir(packaged)).filter((name) => name.endsWith(".sql")).sort();
const RELEASED = FILES.map((_, i) => i + 1);
/** The version a migration added after this release takes, as a file name prefix. */
const NEXT = RELEASED.length + 1;
const prefix = (version: number) => String(version).padStart(4, "0");

/** A copy of the packaged migrations that a test may edit. */
async function copyOfMigrations(name: string): Promise<URL> {
  const dir = join(scratch, name);
  await cp(packaged, dir, { recursive: true });
  return pathToFileURL(`${dir}/`);
}

async function appliedVersions(): Promise<number[]> {
  const { rows } = await db.pool.query<{ version: number }>(
    "SELECT version FROM kopek_migrations ORDER BY version",
  );
  return rows.map((row) => row.version);
}

// From an empty database only: the partitioned and Citus modes start from a schema already migrated.
describe.runIf(testDatabaseSchema() === "plain")("migrate", () => {
  // On PGlite both run through its one connection; only a real server can race two sessions.
  const how = db.isRealServer ? "from two pools at once" : "twice at once through PGlite's single connection";
  it(`applies each migration exactly once when run ${how}`, async () => {
    const [first, second] = db.isRealServer
      ? [db.newPool({ max: 2 }), db.newPool({ max: 2 })]
      : [db.pool, db.pool];
    const results = await Promise.all([migrate(first), migrate(second)]);
    const applied = results.flatMap((result) => result.applied);
    expect(applied).toEqual(RELEASED);
    expect(await appliedVersions()).toEqual(RELEASED);
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'invoices'",
    );
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("does nothing when the schema is current", async () => {
    expect(await migrate(db.pool)).toEqual({ applied: [] });
  });

  it("applies a new migration added after a release, in order", async () => {
    const dir = await copyOfMigrations("added");
    await writeFile(
      new URL(`${prefix(NEXT)}_add_note.sql`, dir),
      "ALTER TABLE projects ADD COLUMN note text;\n",
    );
    expect(await migrate(db.pool, { directory: dir })).toEqual({ applied: [NEXT] });
    expect(await appliedVersions()).toEqual([...RELEASED, NEXT]);
    await db.pool.query(
      `ALTER TABLE projects DROP COLUMN note; DELETE FROM kopek_migrations WHERE version = ${NEXT}`,
    );
  });

  it("refuses to run when an applied migration was edited", async () => {
    const dir = await copyOfMigrations("edited");
    await writeFile(new URL("0001_initial.sql", dir), "-- edited after release\n", { flag: "a" });
    await expect(migrate(db.pool, { directory: dir })).rejects.toThrow(
      /0001_initial\.sql changed after it was applied/,
    );
  });

  it("refuses to run when an applied migration's file is gone", async () => {
    const dir = await copyOfMigrations("missing");
    const last = FILES[FILES.length - 1] as string;
    await rm(new URL(last, dir));
    const name = last.slice(5, -4);
    await expect(migrate(db.pool, { directory: dir })).rejects.toThrow(
      new RegExp(`applied migration ${RELEASED.length} \\(${name}\\) has no file`),
    );
  });

  it("rolls back a failing migration and records nothing", async () => {
    const dir = await copyOfMigrations("failing");
    await writeFile(
      new URL(`${prefix(NEXT)}_broken.sql`, dir),
      "CREATE TABLE half_done (id int);\nSELECT 1/0;\n",
    );
    await expect(migrate(db.pool, { directory: dir })).rejects.toThrow(/division by zero/);
    expect(await appliedVersions()).toEqual(RELEASED);
    const { rows } = await db.pool.query("SELECT to_regclass('half_done') AS t");
    expect(rows[0]).toEqual({ t: null });
  });

  it("rejects a migrations folder with a gap or a stray file", async () => {
    const gap = await copyOfMigrations("gap");
    await writeFile(new URL(`${prefix(NEXT + 1)}_skipped.sql`, gap), "SELECT 1;\n");
    await expect(migrate(db.pool, { directory: gap })).rejects.toThrow(/out of sequence/);
    const stray = await copyOfMigrations("stray");
    await writeFile(new URL("notes.txt", stray), "hi\n");
    await expect(migrate(db.pool, { directory: stray })).rejects.toThrow(
      /unexpected file in migrations: notes\.txt/,
    );
  });
});
