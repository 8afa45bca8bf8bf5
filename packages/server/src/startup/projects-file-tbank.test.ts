import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadProjectsFile } from "./projects-file.js";

// A T-Bank terminal password in the projects file: named by where it is kept (passwordFile or
// passwordEnv), never inline — the same rules as YooKassa's secret key.
const ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
const PASSWORD = randomBytes(12).toString("base64url");
const dir = await mkdtemp(join(tmpdir(), "kopek-tbank-"));
await writeFile(join(dir, "tbank.password"), `\n  ${PASSWORD}\n`, { mode: 0o600 });

async function load(provider: Record<string, unknown>, env: Record<string, string> = {}) {
  const path = join(dir, `projects-${randomBytes(4).toString("hex")}.json`);
  await writeFile(path, JSON.stringify({ projects: [{ id: ID, name: "shop", provider }] }));
  return loadProjectsFile(path, env);
}

const tbank = { kind: "tbank", terminalKey: "1700000000000DEMO" };

describe("a tbank provider in the projects file", () => {
  test("reads passwordFile relative to the projects file, trimmed; storedMethods default to card", async () => {
    const loaded = await load({ ...tbank, passwordFile: "tbank.password" });
    expect(loaded._unsafeUnwrap().projects[0]?.provider).toEqual({
      kind: "tbank",
      terminalKey: "1700000000000DEMO",
      password: PASSWORD,
      storedMethods: ["card"],
      apiUrl: null,
    });
  });

  test("reads passwordEnv and apiUrl", async () => {
    const loaded = await load(
      { ...tbank, passwordEnv: "TBANK_PASSWORD", apiUrl: "http://127.0.0.1:9/v2" },
      { TBANK_PASSWORD: PASSWORD },
    );
    expect(loaded._unsafeUnwrap().projects[0]?.provider).toMatchObject({
      password: PASSWORD,
      apiUrl: "http://127.0.0.1:9/v2",
    });
  });

  test.each([
    [{ password: PASSWORD }, "projects[0].provider.password must not be written here"],
    [{}, "projects[0].provider needs its terminal password"],
    [
      { passwordFile: "tbank.password", passwordEnv: "X" },
      "projects[0].provider.passwordEnv cannot be given with passwordFile",
    ],
    [
      { passwordEnv: "UNSET" },
      "projects[0].provider.passwordEnv UNSET: that environment variable is not set",
    ],
    [{ passwordFile: "missing" }, "projects[0].provider.passwordFile missing cannot be read (ENOENT)"],
    [
      { passwordFile: "tbank.password", terminalKey: "not a key!" },
      "projects[0].provider.terminalKey must be the terminal's TerminalKey",
    ],
    [
      { passwordFile: "tbank.password", secretKeyFile: "x" },
      "projects[0].provider.secretKeyFile is not a known field",
    ],
  ])("refuses %o, never echoing the password", async (fields, message) => {
    const error = (await load({ ...tbank, ...fields }))._unsafeUnwrapErr();
    expect(error).toContain(message);
    expect(error).not.toContain(PASSWORD);
  });
});
