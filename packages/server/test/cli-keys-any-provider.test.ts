import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hashApiKey } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { kopekOn, openCliFixture } from "./cli-in-process.js";

// A database whose projects hold real providers' secrets, encrypted with the server's key: the key
// commands run without that key (an operator revoking a leaked key from any shell), in this process
// so that PGlite runs it too.
const { db, dir, key: serverKey, serverStorage } = await openCliFixture("cli-keys-any-provider");
// Where a command that wanted a key would make one (KOPEK_ENCRYPTION_KEY unset): the key commands must not.
const KEY_FILE = join(dir, "kopek", "encryption.key");
const WITH_KEY = { KOPEK_ENCRYPTION_KEY: serverKey.toString("base64") };

const kopek = (argv: string[], env: Record<string, string> = {}, stdin = "") =>
  kopekOn(db, argv, { KOPEK_ENCRYPTION_KEY_FILE: KEY_FILE, ...env }, stdin);

const yooKassaSecret = `test_${randomBytes(32).toString("base64url")}`;
await writeFile(join(dir, "shop.key"), `${yooKassaSecret}\n`, { mode: 0o600 });
const tbankPassword = randomBytes(12).toString("base64url");

async function createProject(...args: string[]) {
  const created = await kopek(["projects", "create", "--name", ...args], {
    ...WITH_KEY,
    TBANK_PASSWORD: tbankPassword,
  });
  expect(created.code).toBe(0);
  return created.stdout.trim();
}

const yooKassa = await createProject(
  "shop",
  ..."--provider yookassa --shop-id 506751 --secret-key-file".split(" "),
  join(dir, "shop.key"),
);
const tbank = await createProject(
  "t shop",
  ..."--provider tbank --terminal-key 1700000000000DEMO --password-env TBANK_PASSWORD".split(" "),
);

/** A key the server (which has the encryption key) issued to the project. */
async function issued(project: string) {
  const out = (await kopek(["keys", "create", "--project", project], WITH_KEY)).stdout;
  const key = out.match(/key: +(\S+)/)?.[1] ?? "";
  return { key, id: out.match(/id: +(\S+)/)?.[1] ?? "", sha256: hashApiKey(key) };
}

const ownerOf = async (key: string) =>
  (await serverStorage.findProjectByKeyHash(hashApiKey(key)))._unsafeUnwrap()?.project ?? null;

describe(`kopek keys on projects with YooKassa and T-Bank secrets, without the encryption key (${db.backend})`, () => {
  it("revokes by id, sha256 prefix, full sha256 and standard input, and rotates; the old keys are refused", async () => {
    const [byId, byPrefix, bySha256] = [
      await issued(yooKassa),
      await issued(yooKassa),
      await issued(yooKassa),
    ];
    const [byStdin, rotated] = [await issued(tbank), await issued(tbank)];
    const shown = (k: { sha256: string; id: string }) => `${k.sha256.slice(0, 12)}… (key ${k.id})`;

    expect(await kopek(["keys", "revoke", byId.id])).toEqual({
      code: 0,
      stdout: `revoked ${shown(byId)}\n`,
      stderr: "",
    });
    expect(await kopek(["keys", "revoke", `${byPrefix.sha256.slice(0, 12)}…`])).toEqual({
      code: 0,
      stdout: `revoked ${shown(byPrefix)}\n`,
      stderr: "",
    });
    expect(await kopek(["keys", "revoke", bySha256.sha256])).toEqual({
      code: 0,
      stdout: `revoked ${shown(bySha256)}\n`,
      stderr: "",
    });
    expect(await kopek(["keys", "revoke", "-"], {}, `${byStdin.key}\n`)).toEqual({
      code: 0,
      stdout: `revoked ${shown(byStdin)}\n`,
      stderr: "",
    });
    const rotation = await kopek(["keys", "rotate", rotated.id]);
    expect(rotation).toMatchObject({ code: 0, stderr: "" });
    expect(rotation.stdout).toContain(`revoked ${shown(rotated)}\n`);
    const replacement = rotation.stdout.match(/key: +(\S+)/)?.[1] ?? "";

    for (const { key } of [byId, byPrefix, bySha256, byStdin, rotated]) expect(await ownerOf(key)).toBeNull();
    // The new key works, and the projects' secrets are as the server stored them.
    expect((await ownerOf(replacement))?.provider).toMatchObject({ kind: "tbank", password: tbankPassword });
    expect((await serverStorage.findProject(yooKassa))._unsafeUnwrap()?.provider).toMatchObject({
      secretKey: yooKassaSecret,
    });
    expect(existsSync(KEY_FILE)).toBe(false);
  });

  it("keys create and keys list work on such projects", async () => {
    for (const project of [yooKassa, tbank]) {
      const created = await kopek(["keys", "create", "--project", project]);
      expect(created).toMatchObject({ code: 0, stderr: "" });
      const key = created.stdout.match(/key: +(\S+)/)?.[1] ?? "";
      expect((await ownerOf(key))?.id).toBe(project);
      const list = await kopek(["keys", "list", "--project", project]);
      expect(list).toMatchObject({ code: 0, stderr: "" });
      expect(list.stdout).toContain(`sha256 ${hashApiKey(key).slice(0, 12)}…`);
    }
    expect(existsSync(KEY_FILE)).toBe(false);
  });

  it("a command that reads the secrets, run with another key, says which variable to set", async () => {
    const wrong = { KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    const listed = await kopek(["projects", "list"], wrong);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toMatch(/^kopek: .*KOPEK_ENCRYPTION_KEY/);
    expect(listed.stderr).not.toContain(yooKassaSecret);
  });
});
