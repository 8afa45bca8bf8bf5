import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kopekOn, openCliFixture } from "./cli-in-process.js";

// `kopek projects create|update|list` with a real provider (API.md 10.8), in this process, on PostgreSQL.
const { db, dir, key, serverStorage } = await openCliFixture("cli-projects");

const newSecret = () => `test_${randomBytes(32).toString("base64url")}`;
const SECRET = newSecret();
const keyFile = join(dir, "yookassa.key");
await writeFile(keyFile, `${SECRET}\n`, { mode: 0o600 });

async function kopek(
  argv: string[],
  env: Record<string, string> = { KOPEK_PUBLIC_URL: "https://pay.example" },
) {
  const answer = await kopekOn(db, argv, { KOPEK_ENCRYPTION_KEY: key.toString("base64"), ...env });
  // Whatever the command answers, the secret key is never part of it.
  expect(`${answer.stdout}${answer.stderr}`).not.toContain(SECRET.slice(5));
  return answer;
}

const createYooKassa = (...more: string[]) =>
  kopek([
    "projects",
    "create",
    "--name",
    "real shop",
    "--provider",
    "yookassa",
    "--shop-id",
    "506751",
    ...more,
  ]);

async function storedProvider(id: string) {
  return (await serverStorage.findProject(id))._unsafeUnwrap()?.provider;
}

describe(`kopek projects with a real provider (${db.backend})`, () => {
  it("create stores the secret key encrypted and prints the id, then the notification URL", async () => {
    const created = await createYooKassa("--secret-key-file", keyFile, "--stored-methods", "card,sbp");
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(created.stdout).toBe(`${id}\n`);
    expect(created.stderr).toBe(
      `Notification URL, to give the provider (yookassa): https://pay.example/provider-events/${id}/yookassa\n`,
    );
    expect(await storedProvider(id)).toEqual({
      kind: "yookassa",
      shopId: "506751",
      secretKey: SECRET,
      storedMethods: ["card", "sbp"],
      apiUrl: null,
    });
    const { rows } = await db.pool.query("SELECT * FROM projects WHERE id = $1", [id]);
    expect(JSON.stringify(rows)).not.toContain(SECRET.slice(5));
    expect(Buffer.from(rows[0].provider_secrets_ciphertext).toString("latin1")).not.toContain(SECRET);

    const list = await kopek(["projects", "list"]);
    expect(list.stdout).toContain(
      `${id}  real shop  yookassa shopId=506751 storedMethods=card,sbp  created `,
    );
  });

  it("create --provider tbank stores the terminal password encrypted; update keeps it; list never shows it", async () => {
    const password = randomBytes(12).toString("base64url");
    const created = await kopek(
      [
        "projects",
        "create",
        "--name",
        "t shop",
        "--provider",
        "tbank",
        "--terminal-key",
        "1700000000000DEMO",
        "--password-env",
        "TBANK_PASSWORD",
      ],
      { TBANK_PASSWORD: password, KOPEK_PUBLIC_URL: "https://pay.example" },
    );
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(created.stderr).toContain(`https://pay.example/provider-events/${id}/tbank\n`);
    expect(await storedProvider(id)).toEqual({
      kind: "tbank",
      terminalKey: "1700000000000DEMO",
      password,
      storedMethods: ["card"],
      apiUrl: null,
    });
    const { rows } = await db.pool.query("SELECT * FROM projects WHERE id = $1", [id]);
    expect(JSON.stringify(rows)).not.toContain(password);
    const renamed = await kopek(["projects", "update", id, "--name", "t renamed"]);
    expect(renamed.stdout).toBe(
      `updated ${id}: t renamed, tbank terminalKey=1700000000000DEMO storedMethods=card\n`,
    );
    expect(await storedProvider(id)).toMatchObject({ password });
    expect((await kopek(["projects", "list"])).stdout).not.toContain(password);
    const missing = await kopek([
      "projects",
      "create",
      "--name",
      "x",
      "--provider",
      "tbank",
      "--terminal-key",
      "T",
    ]);
    expect(missing.stderr).toContain(
      "the tbank provider needs --password-file <path> or --password-env <NAME>",
    );
  });

  it("without KOPEK_PUBLIC_URL, prints the URL with a placeholder and names the variable", async () => {
    const created = await kopek(
      [
        "projects",
        "create",
        "--name",
        "shop",
        "--provider",
        "yookassa",
        "--shop-id",
        "1",
        "--secret-key-env",
        "SHOP_KEY",
      ],
      { SHOP_KEY: SECRET },
    );
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(created.stderr).toContain(`<KOPEK_PUBLIC_URL>/provider-events/${id}/yookassa\n`);
    expect(created.stderr).toContain("KOPEK_PUBLIC_URL is not set here");
    expect(await storedProvider(id)).toMatchObject({ secretKey: SECRET, storedMethods: ["card"] });
  });

  it("update keeps what it is not told, rotates the secret key, and moves a project back to the sandbox", async () => {
    const id = (await createYooKassa("--secret-key-file", keyFile)).stdout.trim();
    const renamed = await kopek(["projects", "update", id, "--name", "renamed", "--stored-methods", ""]);
    expect(renamed).toEqual({
      code: 0,
      stdout: `updated ${id}: renamed, yookassa shopId=506751 storedMethods=none\n`,
      stderr: `Notification URL, to give the provider (yookassa): https://pay.example/provider-events/${id}/yookassa\n`,
    });
    expect(await storedProvider(id)).toMatchObject({ secretKey: SECRET, storedMethods: [] });

    const rotated = newSecret();
    const updated = await kopek(["projects", "update", id, "--secret-key-env", "NEW_KEY"], {
      NEW_KEY: rotated,
      KOPEK_PUBLIC_URL: "https://pay.example/",
    });
    expect(updated.code).toBe(0);
    expect(updated.stdout + updated.stderr).not.toContain(rotated);
    expect(updated.stderr).toContain(`https://pay.example/provider-events/${id}/yookassa\n`);
    expect(await storedProvider(id)).toMatchObject({ shopId: "506751", secretKey: rotated });

    const sandbox = await kopek(["projects", "update", id, "--provider", "sandbox"]);
    expect(sandbox).toEqual({
      code: 0,
      stdout: `updated ${id}: renamed, sandbox storedMethodCharge=true\n`,
      stderr: "",
    });
    const { rows } = await db.pool.query("SELECT provider_secrets_ciphertext FROM projects WHERE id = $1", [
      id,
    ]);
    expect(rows).toEqual([{ provider_secrets_ciphertext: null }]);
  });

  it('sets the seller\'s details, keeps them on update, removes one with "", refuses a wrong ИНН', async () => {
    const created = await kopek([
      "projects",
      "create",
      "--name",
      "zerno",
      "--seller-legal-name",
      " ООО «Зерно» ",
      "--seller-inn",
      "7707083893",
      "--seller-offer-url",
      "https://zerno.example/offer",
    ]);
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    const stored = async () => (await serverStorage.findProject(id))._unsafeUnwrap()?.seller;
    expect(await stored()).toEqual({
      legalName: "ООО «Зерно»",
      inn: "7707083893",
      offerUrl: "https://zerno.example/offer",
    });
    expect((await kopek(["projects", "update", id, "--seller-phone", "+79991234567"])).code).toBe(0);
    expect((await kopek(["projects", "update", id, "--seller-offer-url", ""])).code).toBe(0);
    expect(await stored()).toEqual({ legalName: "ООО «Зерно»", inn: "7707083893", phone: "+79991234567" });
    expect(await kopek(["projects", "update", id, "--seller-inn", "7707083894"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--seller-inn has a wrong check digit: not an ИНН"),
    });
    expect(await stored()).toMatchObject({ inn: "7707083893" });
  });

  it("turns saving with no payment (API.md 11.5) on and off, and refuses anything but true or false", async () => {
    const id = (await createYooKassa("--secret-key-file", keyFile)).stdout.trim();
    const on = await kopek(["projects", "update", id, "--save-without-payment", "true"]);
    expect(on.stdout).toBe(
      `updated ${id}: real shop, yookassa shopId=506751 storedMethods=card saveWithoutPayment=true\n`,
    );
    expect(await storedProvider(id)).toMatchObject({ secretKey: SECRET, saveWithoutPayment: true });
    const renamed = await kopek(["projects", "update", id, "--name", "kept"]);
    expect(renamed.stdout).toContain("saveWithoutPayment=true");
    const off = await kopek(["projects", "update", id, "--save-without-payment", "false"]);
    expect(off.stdout).toBe(`updated ${id}: kept, yookassa shopId=506751 storedMethods=card\n`);
    expect(await storedProvider(id)).not.toHaveProperty("saveWithoutPayment");
    expect(await kopek(["projects", "update", id, "--save-without-payment", "yes"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--save-without-payment must be true or false"),
    });
  });

  it("refuses an inline secret, two sources, no source, an unreadable file, an unset variable", async () => {
    for (const inline of [["--secret-key", SECRET], [`--secret-key=${SECRET}`]])
      expect(await createYooKassa(...inline)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("kopek: --secret-key is refused: name where the key is kept"),
      });
    expect(await createYooKassa("--secret-key-file", keyFile, "--secret-key-env", "X")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--secret-key-env cannot be given with secretKeyFile"),
    });
    expect(await createYooKassa()).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        "the yookassa provider needs --secret-key-file <path> or --secret-key-env <NAME>",
      ),
    });
    expect(await createYooKassa("--secret-key-file", join(dir, "missing.key"))).toEqual({
      code: 1,
      stdout: "",
      stderr: `kopek: --secret-key-file ${join(dir, "missing.key")} cannot be read (ENOENT)\n`,
    });
    expect(await createYooKassa("--secret-key-env", "UNSET_SHOP_KEY")).toEqual({
      code: 1,
      stdout: "",
      stderr: "kopek: --secret-key-env UNSET_SHOP_KEY: that environment variable is not set\n",
    });
    expect(await createYooKassa("--secret-key-file", keyFile, "--stored-methods", "card,cash")).toMatchObject(
      {
        code: 2,
        stderr: expect.stringContaining("--stored-methods must be a list of card, sbp"),
      },
    );
    expect(await kopek(["projects", "create", "--name", "s", "--shop-id", "1"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--shop-id does not apply to the sandbox provider"),
    });
    expect(await kopek(["projects", "create", "--name", "s", "--provider", "stripe"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--provider must be sandbox, http, yookassa or tbank"),
    });
    expect(
      await kopek(["projects", "update", "0192f3c4-0000-7000-8000-000000000000", "--name", "x"]),
    ).toMatchObject({
      code: 1,
      stderr:
        'kopek: project "0192f3c4-0000-7000-8000-000000000000" does not exist (kopek projects list shows them)\n',
    });
  });

  it("an http project takes --url, and needs no notification URL (it is sent with each payment)", async () => {
    const created = await kopek([
      "projects",
      "create",
      "--name",
      "h",
      "--provider",
      "http",
      "--url",
      "http://127.0.0.1:4010",
    ]);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    expect(await storedProvider(created.stdout.trim())).toEqual({
      kind: "http",
      url: "http://127.0.0.1:4010",
      storedMethodCharge: true,
      timeoutMs: null,
    });
  });

  it('--display-name: set on create, kept, replaced, removed with "" on update; checked', async () => {
    const created = await kopek([
      "projects",
      "create",
      "--name",
      "shop",
      "--display-name",
      " Кофейня «Зерно» ",
    ]);
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    const shown = async () => (await serverStorage.findProject(id))._unsafeUnwrap()?.displayName;
    expect(await shown()).toBe("Кофейня «Зерно»");
    expect((await kopek(["projects", "update", id, "--name", "shop 2"])).stdout).toBe(
      `updated ${id}: shop 2 (payers see "Кофейня «Зерно»"), sandbox storedMethodCharge=true\n`,
    );
    expect(await shown()).toBe("Кофейня «Зерно»");
    expect((await kopek(["projects", "update", id, "--display-name", "Зерно"])).code).toBe(0);
    expect(await shown()).toBe("Зерно");
    expect((await kopek(["projects", "update", id, "--display-name", ""])).code).toBe(0);
    expect(await shown()).toBeUndefined();
    for (const [bad, why] of [
      ["x".repeat(101), "--display-name must be 1-100 characters, not only spaces"],
      ["4111 1111 1111 1111", "--display-name must not contain a card number"],
      ["Shop\u0007", "--display-name must contain printable characters only"],
    ] as const) {
      const refused = await kopek(["projects", "update", id, "--display-name", bad]);
      expect(refused).toMatchObject({ code: 2, stdout: "" });
      expect(refused.stderr).toContain(why);
      expect((await kopek(["projects", "create", "--name", "x", "--display-name", bad])).code).toBe(2);
    }
    expect((await kopek(["projects", "create", "--name", "x", "--display-name", " "])).code).toBe(2);
    expect(await shown()).toBeUndefined();
  });
});
