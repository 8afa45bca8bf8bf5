import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { hashApiKey, isWellFormedApiKey } from "@kopek/core";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { kopekOn } from "./cli-in-process.js";
import { spawnCli } from "./cli-process.js";

const MIGRATIONS = readdirSync(new URL("../../storage-postgres/migrations/", import.meta.url))
  .filter((name) => name.endsWith(".sql"))
  .sort()
  .map((name) => name.slice(0, -4));

// The database commands in this process, on a fresh database with no schema: a real server when one
// answers, else PGlite (handed in as the command's pool, since PGlite has no URL).
const db = await openTestDatabase();
afterAll(() => db.close());

// Projects may hold a provider's secret, encrypted with the server's key: the commands load it.
const KEY = randomBytes(32).toString("base64");

let stdin = "";
const kopek = (...argv: string[]) => kopekOn(db, argv, { KOPEK_ENCRYPTION_KEY: KEY }, stdin);

describe(`kopek database commands (${db.backend})`, () => {
  it("migrate applies the migrations on a fresh database, then finds nothing to do", async () => {
    expect((await kopek("projects", "list")).stderr).toMatch(/run migrate first/);
    expect(await kopek("migrate")).toEqual({
      code: 0,
      // Every file the package ships, in order (0001_initial, 0002_lifecycle, …).
      stdout: MIGRATIONS.map((name) => `applied ${name}\n`).join(""),
      stderr: "",
    });
    expect((await kopek("migrate")).stdout).toBe("The database schema is current: nothing to apply.\n");
  });

  it("projects create prints the id; projects list shows it; a taken id is refused", async () => {
    const id = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
    const created = await kopek(
      "projects",
      "create",
      "--name",
      "shop",
      "--id",
      id,
      "--stored-method-charge",
      "false",
    );
    expect(created).toEqual({ code: 0, stdout: `${id}\n`, stderr: "" });
    const generated = (
      await kopek("projects", "create", "--name", "second", "--display-name", 'Кофейня "Зерно"')
    ).stdout.trim();
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const list = (await kopek("projects", "list")).stdout.split("\n");
    expect(list[0]).toMatch(new RegExp(`^${id}  shop  sandbox storedMethodCharge=false  created \\S+Z$`));
    // The display name beside the name, JSON-quoted: none of its characters can break the line.
    expect(list[1]).toContain(`${generated}  second "Кофейня \\"Зерно\\""  sandbox storedMethodCharge=true`);
    expect(await kopek("projects", "create", "--name", "again", "--id", id)).toMatchObject({
      code: 1,
      stderr: `kopek: project ${id} already exists\n`,
    });
    expect((await kopek("projects", "create")).code).toBe(2);
    expect((await kopek("projects", "create", "--name", "x", "--stored-method-charge", "maybe")).code).toBe(
      2,
    );
  });

  it("keys create prints the key once and stores only its hash; list and revoke never show keys", async () => {
    const project = (await kopek("projects", "create", "--name", "keys")).stdout.trim();
    const created = await kopek("keys", "create", "--project", project);
    expect(created.code).toBe(0);
    const key = created.stdout.match(/key: +(\S+)/)?.[1] ?? "";
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(created.stdout).toContain("cannot be shown again");
    const { rows } = await db.pool.query("SELECT sha256 FROM api_keys WHERE project_id = $1", [project]);
    expect(rows).toEqual([{ sha256: hashApiKey(key) }]);

    const second =
      (await kopek("keys", "create", "--project", project)).stdout.match(/sha256: +(\S+)/)?.[1] ?? "";
    expect(await kopek("keys", "revoke", key)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(`^revoked ${hashApiKey(key).slice(0, 12)}… \\(key [0-9a-f-]{36}\\)\n$`),
      ),
      stderr: expect.stringMatching(
        /^warning: a key on the command line .*kopek keys revoke - < key\.txt\n$/,
      ),
    });
    const third =
      (await kopek("keys", "create", "--project", project)).stdout.match(/key: +(\S+)/)?.[1] ?? "";
    stdin = `\n${third}\n`;
    expect(await kopek("keys", "revoke", "-")).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(`^revoked ${hashApiKey(third).slice(0, 12)}… \\(key [0-9a-f-]{36}\\)\n$`),
      ),
      stderr: "",
    });
    stdin = "";
    expect((await kopek("keys", "revoke", second)).code).toBe(0);
    const list = await kopek("keys", "list", "--project", project);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).not.toContain(hashApiKey(key)); // only a prefix
    expect(list.stdout.match(/sha256 [0-9a-f]{12}… {2}created \S+Z {2}revoked \S+Z/g)).toHaveLength(3);
    expect(await kopek("keys", "revoke", "f".repeat(64))).toMatchObject({ code: 1 });
    expect((await kopek("keys", "revoke", "not-a-key")).code).toBe(2);
    expect(await kopek("keys", "create", "--project", "0192f3c4-0000-7000-8000-000000000000")).toMatchObject({
      code: 1,
      stderr:
        'kopek: project "0192f3c4-0000-7000-8000-000000000000" does not exist (kopek projects list shows them)\n',
    });
  });
});

describe("kopek database commands without DATABASE_URL", () => {
  it("say so in one line and exit 2", async () => {
    const cli = spawnCli(["projects", "list"]);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toBe(
      "kopek: this command needs DATABASE_URL (a postgres:// URL) to know which database to use\n",
    );
  });
});
