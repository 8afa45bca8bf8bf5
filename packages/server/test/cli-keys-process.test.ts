import { randomBytes, randomUUID } from "node:crypto";
import { hashApiKey, isWellFormedApiKey } from "@kopek/core";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { serverStorageOn } from "./cli-in-process.js";
import { spawnCli } from "./cli-process.js";

// The real kopek process on a real PostgreSQL (the commands reach it by DATABASE_URL, which PGlite has not).
const db = await openTestDatabase();
afterAll(() => db.close());
const env = { DATABASE_URL: db.url ?? "", KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64") };

async function kopek(...args: string[]) {
  const cli = spawnCli(args, env);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

const revokedAt = async (sha256: string) =>
  (await db.pool.query("SELECT revoked_at FROM api_keys WHERE sha256 = $1", [sha256])).rows[0]?.revoked_at;

describe("kopek, the process", { timeout: 240_000 }, () => {
  it("--version prints the package's version; <command> --help that command's usage; both exit 0", async () => {
    const { version } = (await import("../package.json", { with: { type: "json" } })).default;
    expect(await kopek("--version")).toEqual({ code: 0, stdout: `kopek ${version}\n`, stderr: "" });
    const help = await kopek("keys", "create", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: kopek keys create …\n\n {2}keys create --project <id> /);
    expect(help.stdout).not.toContain("keys revoke"); // not the global help
    expect(await kopek("keys", "nothing", "--help")).toMatchObject({ code: 2 });
  });

  it.runIf(db.url !== null)(
    "revokes by id, by the hash prefix keys list prints, or by the key; refuses an ambiguous prefix; says a project does not exist",
    async () => {
      expect((await kopek("migrate")).code).toBe(0);
      expect(await kopek("keys", "create", "--project", "nope")).toEqual({
        code: 1,
        stdout: "",
        stderr: 'kopek: project "nope" does not exist (kopek projects list shows them)\n',
      });
      expect((await kopek("keys", "list")).stderr).toMatch(/^kopek: keys list needs --project <id>/);
      const project = (await kopek("projects", "create", "--name", "keys")).stdout.trim();
      const keys = [];
      for (let i = 0; i < 3; i += 1) {
        const out = (await kopek("keys", "create", "--project", project)).stdout;
        keys.push({ key: out.match(/key: +(\S+)/)?.[1] ?? "", id: out.match(/id: +(\S+)/)?.[1] ?? "" });
      }
      const [byId, byPrefix, byKey] = keys as [(typeof keys)[0], (typeof keys)[0], (typeof keys)[0]];
      expect(isWellFormedApiKey(byKey.key)).toBe(true);
      const list = (await kopek("keys", "list", "--project", project)).stdout;
      const printed = list.match(new RegExp(`${byPrefix.id} {2}sha256 ([0-9a-f]{12}…)`))?.[1] ?? "";

      expect((await kopek("keys", "revoke", byId.id)).stdout).toBe(
        `revoked ${hashApiKey(byId.key).slice(0, 12)}… (key ${byId.id})\n`,
      );
      expect((await kopek("keys", "revoke", printed)).code).toBe(0); // pasted with its "…"
      expect((await kopek("keys", "revoke", byKey.key)).code).toBe(0);
      for (const { key } of keys) expect(await revokedAt(hashApiKey(key))).toBeInstanceOf(Date);
      expect(await kopek("keys", "revoke", "0123456789ab")).toMatchObject({ code: 1 });

      // Two keys whose hashes share a prefix: the prefix names neither.
      const shared = `abcdef${randomBytes(4).toString("hex")}`;
      const twins = [randomUUID(), randomUUID()];
      for (const id of twins)
        await db.pool.query(
          "INSERT INTO api_keys (id, project_id, sha256, created_at) VALUES ($1, $2, $3, now())",
          [id, project, `${shared}${randomBytes(25).toString("hex")}`],
        );
      const ambiguous = await kopek("keys", "revoke", shared);
      expect(ambiguous.code).toBe(1);
      expect(ambiguous.stderr).toContain(`2 API keys have sha256 starting ${shared}…`);
      for (const id of twins) expect(ambiguous.stderr).toContain(id);
    },
  );

  it.runIf(db.url !== null)(
    "keys rotate prints a new key once and revokes the old one at once, or from the end of --grace, stored",
    async () => {
      expect((await kopek("migrate")).code).toBe(0);
      const project = (await kopek("projects", "create", "--name", "rotate")).stdout.trim();
      const old =
        (await kopek("keys", "create", "--project", project)).stdout.match(/key: +(\S+)/)?.[1] ?? "";
      const rotated = await kopek("keys", "rotate", old);
      expect(rotated.code).toBe(0);
      const fresh = rotated.stdout.match(/key: +(\S+)/)?.[1] ?? "";
      expect(isWellFormedApiKey(fresh)).toBe(true);
      expect(rotated.stdout).toContain("cannot be shown again");
      expect(await revokedAt(hashApiKey(old))).toBeInstanceOf(Date);
      expect(await revokedAt(hashApiKey(fresh))).toBeNull();
      expect((await kopek("keys", "rotate", old)).stderr).toContain("is already revoked");

      // With a grace period the command returns at once; the old key's end is stored, and it works till then.
      // "At once" is judged against the stored end, not a stopwatch: had the command waited out the grace,
      // the end would have passed by the time it returned (a timed bound failed on a loaded machine).
      const started = Date.now();
      const graced = await kopek("keys", "rotate", fresh, "--grace", "5s");
      expect(graced.code).toBe(0);
      expect(graced.stdout).toMatch(/stays valid until \S+Z, then every server refuses it/);
      const end = await revokedAt(hashApiKey(fresh));
      expect(end?.getTime()).toBeGreaterThan(Date.now());
      expect(end?.getTime()).toBeGreaterThanOrEqual(started + 5000);
      expect(end?.getTime()).toBeLessThanOrEqual(Date.now() + 5000);
      const listed = await kopek("keys", "list", "--project", project);
      expect(listed.stdout).toContain(`active until ${end?.toISOString()}`);
      const storage = serverStorageOn(db, Buffer.from(env.KOPEK_ENCRYPTION_KEY, "base64"));
      const lookUp = (key: string) => storage.findProjectByKeyHash(hashApiKey(key));
      expect((await lookUp(fresh))._unsafeUnwrap()?.project.id).toBe(project);
      await new Promise((resolve) => setTimeout(resolve, (end?.getTime() ?? 0) - Date.now() + 200));
      expect((await lookUp(fresh))._unsafeUnwrap()).toBeNull();
      const third = graced.stdout.match(/key: +(\S+)/)?.[1] ?? "";
      expect(await revokedAt(hashApiKey(third))).toBeNull();
      expect((await kopek("keys", "rotate", third, "--grace", "31d")).code).toBe(2);
    },
  );
});
