import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStorage } from "@kopek/storage-memory";
import { describe, expect, test } from "vitest";
import { applyProjectsFile, loadProjectsFile } from "./projects-file.js";

// A real provider's secret in the projects file (API.md 10.8): named by where it is kept, never inline.
const ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
const SECRET = `test_${randomBytes(32).toString("base64url")}`;
const dir = await mkdtemp(join(tmpdir(), "kopek-secrets-"));
await writeFile(join(dir, "yookassa.key"), `\n  ${SECRET}\n`, { mode: 0o600 });
await writeFile(join(dir, "empty.key"), " \n", { mode: 0o600 });
await writeFile(join(dir, "two-lines.key"), `${SECRET}\nsomething else\n`, { mode: 0o600 });

async function load(provider: Record<string, unknown>, env: Record<string, string> = {}) {
  const path = join(dir, `projects-${randomBytes(4).toString("hex")}.json`);
  await writeFile(path, JSON.stringify({ projects: [{ id: ID, name: "shop", provider }] }));
  return { path, loaded: await loadProjectsFile(path, env) };
}

const yookassa = { kind: "yookassa", shopId: "506751" };

describe("a yookassa provider in the projects file", () => {
  test("reads secretKeyFile relative to the projects file, trimmed; storedMethods default to card", async () => {
    const { loaded } = await load({ ...yookassa, secretKeyFile: "yookassa.key" });
    expect(loaded._unsafeUnwrap().projects[0]?.provider).toEqual({
      kind: "yookassa",
      shopId: "506751",
      secretKey: SECRET,
      storedMethods: ["card"],
      apiUrl: null,
    });
  });

  test("reads saveWithoutPayment (API.md 11.5): true kept, false or absent left out; anything else refused", async () => {
    const on = await load({ ...yookassa, secretKeyFile: "yookassa.key", saveWithoutPayment: true });
    expect(on.loaded._unsafeUnwrap().projects[0]?.provider).toMatchObject({ saveWithoutPayment: true });
    const off = await load({ ...yookassa, secretKeyFile: "yookassa.key", saveWithoutPayment: false });
    expect(off.loaded._unsafeUnwrap().projects[0]?.provider).not.toHaveProperty("saveWithoutPayment");
    const tbank = await load(
      { kind: "tbank", terminalKey: "T1", passwordEnv: "PASS", saveWithoutPayment: true },
      { PASS: SECRET },
    );
    expect(tbank.loaded._unsafeUnwrap().projects[0]?.provider).toMatchObject({ saveWithoutPayment: true });
    const wrong = await load({ ...yookassa, secretKeyFile: "yookassa.key", saveWithoutPayment: "yes" });
    expect(wrong.loaded._unsafeUnwrapErr()).toContain(
      "projects[0].provider.saveWithoutPayment must be true or false",
    );
    const sandbox = await load({ kind: "sandbox", saveWithoutPayment: true });
    expect(sandbox.loaded.isErr()).toBe(true);
  });

  test("reads secretKeyEnv, an absolute secretKeyFile, storedMethods and apiUrl", async () => {
    const fromEnv = await load(
      { ...yookassa, secretKeyEnv: "SHOP_KEY", storedMethods: ["sbp", "card"], apiUrl: "http://127.0.0.1:9" },
      { SHOP_KEY: SECRET },
    );
    expect(fromEnv.loaded._unsafeUnwrap().projects[0]?.provider).toMatchObject({
      secretKey: SECRET,
      storedMethods: ["sbp", "card"],
      apiUrl: "http://127.0.0.1:9",
    });
    const absolute = await load({ ...yookassa, secretKeyFile: join(dir, "yookassa.key"), storedMethods: [] });
    expect(absolute.loaded._unsafeUnwrap().projects[0]?.provider).toMatchObject({
      secretKey: SECRET,
      storedMethods: [],
    });
  });

  test.each([
    [{ secretKey: SECRET }, "projects[0].provider.secretKey must not be written here"],
    [
      { secretKeyFile: "yookassa.key", secretKey: SECRET },
      "projects[0].provider.secretKey must not be written here",
    ],
    [
      { secretKeyFile: "yookassa.key", secretKeyEnv: "SHOP_KEY" },
      "projects[0].provider.secretKeyEnv cannot be given with secretKeyFile",
    ],
    [{}, "projects[0].provider needs its secret key"],
    [
      { secretKeyFile: "missing.key" },
      "projects[0].provider.secretKeyFile missing.key cannot be read (ENOENT)",
    ],
    [{ secretKeyFile: "empty.key" }, "projects[0].provider.secretKeyFile empty.key is empty"],
    [{ secretKeyFile: "two-lines.key" }, "must hold only the secret key, on one line"],
    [
      { secretKeyEnv: "UNSET_KEY" },
      "projects[0].provider.secretKeyEnv UNSET_KEY: that environment variable is not set",
    ],
    [
      { secretKeyEnv: "not a name" },
      "projects[0].provider.secretKeyEnv must be the name of an environment variable",
    ],
    [
      { secretKeyFile: "yookassa.key", storedMethods: ["card", "card"] },
      "projects[0].provider.storedMethods must be a list of card, sbp, each at most once",
    ],
    [
      { secretKeyFile: "yookassa.key", storedMethods: ["cash"] },
      "projects[0].provider.storedMethods[0] must be a list of card, sbp",
    ],
    [
      { secretKeyFile: "yookassa.key", shopId: "shop one" },
      "projects[0].provider.shopId must be the shop's id",
    ],
  ])("%o is refused, naming the field and never the secret", async (fields, message) => {
    const { path, loaded } = await load({ ...yookassa, ...fields }, { EMPTY_KEY: "" });
    const problem = loaded._unsafeUnwrapErr();
    expect(problem).toContain(`KOPEK_PROJECTS_FILE ${path}: `);
    expect(problem).toContain(message);
    expect(problem).not.toContain(SECRET);
    expect(problem).not.toContain(SECRET.slice(5, 20));
  });

  test("an empty variable counts as unset", async () => {
    const { loaded } = await load({ ...yookassa, secretKeyEnv: "EMPTY_KEY" }, { EMPTY_KEY: "" });
    expect(loaded._unsafeUnwrapErr()).toContain("EMPTY_KEY: that environment variable is not set");
  });

  test("a malformed file with a secret pasted in is refused without repeating the text", async () => {
    const path = join(dir, "broken.json");
    await writeFile(path, `{"projects": [{"secretKey": ${SECRET}}]}`);
    const problem = (await loadProjectsFile(path, {}))._unsafeUnwrapErr();
    expect(problem).toContain("is not valid JSON");
    expect(problem).not.toContain(SECRET.slice(5, 20));
  });

  test("applied to memory storage, the project keeps its secret key as is", async () => {
    const storage = createMemoryStorage();
    const { loaded } = await load({ ...yookassa, secretKeyFile: "yookassa.key" });
    await applyProjectsFile(storage, loaded._unsafeUnwrap());
    expect((await storage.findProject(ID))._unsafeUnwrap()?.provider).toMatchObject({ secretKey: SECRET });
  });
});

describe("a provider secret file open to other users", () => {
  // The rule of the encryption key file (private-file.ts): group or others may read or write → no start.
  test.each([0o644, 0o640, 0o604, 0o660, 0o606])(
    "mode %o is refused, naming the file and never the secret",
    async (mode) => {
      const file = `open-${mode.toString(8)}.key`;
      await writeFile(join(dir, file), `${SECRET}\n`, { mode: 0o600 });
      await chmod(join(dir, file), mode);
      const problem = (await load({ ...yookassa, secretKeyFile: file })).loaded._unsafeUnwrapErr();
      expect(problem).toContain(`projects[0].provider.secretKeyFile ${file} is open to other users`);
      expect(problem).toContain(`chmod 600 ${join(dir, file)}`);
      expect(problem).toContain("or use projects[0].provider.secretKeyEnv");
      expect(problem).not.toContain(SECRET.slice(5, 20));
    },
  );

  test("a T-Bank password file likewise; the same file made private is read", async () => {
    const file = join(dir, "open.password");
    await writeFile(file, `${SECRET}\n`, { mode: 0o600 });
    await chmod(file, 0o644);
    const tbank = { kind: "tbank", terminalKey: "1700000000000DEMO", passwordFile: "open.password" };
    expect((await load(tbank)).loaded._unsafeUnwrapErr()).toContain(
      "projects[0].provider.passwordFile open.password is open to other users",
    );
    await chmod(file, 0o600);
    expect((await load(tbank)).loaded._unsafeUnwrap().projects[0]?.provider).toMatchObject({
      password: SECRET,
    });
  });
});
