import { randomBytes } from "node:crypto";
import { isWebhookSecret } from "@kopek/core";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { kopekOn, serverStorageOn } from "./cli-in-process.js";

// `kopek webhooks …` in this process, on a fresh database (as cli-database.test.ts), with the server's key.
const db = await openTestDatabase();
afterAll(() => db.close());
const key = randomBytes(32);

const kopek = (...argv: string[]) => kopekOn(db, argv, { KOPEK_ENCRYPTION_KEY: key.toString("base64") });

describe(`kopek webhooks (${db.backend})`, () => {
  it("add takes a receiver on this machine only with the server's own KOPEK_WEBHOOKS_ALLOW_LOCAL=on", async () => {
    expect((await kopek("migrate")).code).toBe(0);
    const project = (await kopek("projects", "create", "--name", "local")).stdout.trim();
    const local = ["webhooks", "add", "--project", project, "--url", "http://127.0.0.1:4000/hooks"];
    const refused = await kopek(...local);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("KOPEK_WEBHOOKS_ALLOW_LOCAL=on");
    const allowed = await kopekOn(db, local, {
      KOPEK_ENCRYPTION_KEY: key.toString("base64"),
      KOPEK_WEBHOOKS_ALLOW_LOCAL: "on",
    });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^id: +[0-9a-f-]{36}$/m);
  });

  it("add prints the id and secret once, list shows the endpoint without it, remove deletes it", async () => {
    expect((await kopek("migrate")).code).toBe(0);
    const project = (await kopek("projects", "create", "--name", "shop")).stdout.trim();
    const added = await kopek("webhooks", "add", "--project", project, "--url", "https://shop.example/hooks");
    expect(added.code).toBe(0);
    const id = /^id: +(\S+)$/m.exec(added.stdout)?.[1] ?? "";
    const secret = /^secret: +(\S+)$/m.exec(added.stdout)?.[1] ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(isWebhookSecret(secret)).toBe(true);

    const list = await kopek("webhooks", "list", "--project", project);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}  https://shop.example/hooks  enabled  created \\S+Z\\n$`));
    expect(list.stdout).not.toContain(secret);

    // Stored encrypted with the server's key: the server reads the secret back, the table never holds it.
    const storage = serverStorageOn(db, key);
    const [endpoint] = (await storage.listWebhookEndpoints(project))._unsafeUnwrap();
    expect(endpoint?.secret).toBe(secret);
    const { rows } = await db.pool.query("SELECT * FROM webhook_endpoints");
    expect(JSON.stringify(rows)).not.toContain(secret.slice("whsec_".length));

    expect(await kopek("webhooks", "remove", id, "--project", project)).toEqual({
      code: 0,
      stdout: `removed ${id}\n`,
      stderr: "",
    });
    expect((await kopek("webhooks", "list", "--project", project)).stdout).toMatch(/^No webhook endpoints/);
    expect(await kopek("webhooks", "remove", id, "--project", project)).toMatchObject({
      code: 1,
      stderr: `kopek: no webhook endpoint ${id} in project ${project}\n`,
    });
  });

  it("refuses a bad URL, a missing or unknown project, and a malformed endpoint id", async () => {
    const unknown = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
    expect((await kopek("webhooks", "add", "--project", unknown, "--url", "ftp://x")).code).toBe(2);
    expect((await kopek("webhooks", "add", "--project", unknown, "--url", "shop.example/hooks")).code).toBe(
      2,
    );
    expect((await kopek("webhooks", "add", "--url", "https://shop.example/hooks")).code).toBe(2);
    expect(
      await kopek("webhooks", "add", "--project", unknown, "--url", "https://shop.example/hooks"),
    ).toMatchObject({
      code: 1,
      stderr: `kopek: project "${unknown}" does not exist (kopek projects list shows them)\n`,
    });
    expect(await kopek("webhooks", "list", "--project", "nope")).toMatchObject({
      code: 1,
      stderr: 'kopek: project "nope" does not exist (kopek projects list shows them)\n',
    });
    expect((await kopek("webhooks", "list")).code).toBe(2);
    expect((await kopek("webhooks", "remove", "not-a-uuid", "--project", unknown)).code).toBe(2);
  });
});
