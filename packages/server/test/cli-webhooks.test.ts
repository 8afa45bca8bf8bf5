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
    expect(list.stdout).toMatch(
      new RegExp(`^${id}  https://shop.example/hooks  enabled  all events  created \\S+Z\\n$`),
    );
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

  it("updates, disables, rotates, lists deliveries and events, and redelivers, as the API does", async () => {
    expect((await kopek("migrate")).code).toBe(0);
    const project = (await kopek("projects", "create", "--name", "ops")).stdout.trim();
    const added = await kopek(
      "webhooks",
      "add",
      "--project",
      project,
      "--url",
      "https://shop.example/a",
      "--events",
      "customer.created,invoice.paid",
      "--description",
      "Billing",
    );
    expect(added.code).toBe(0);
    const id = /^id: +(\S+)$/m.exec(added.stdout)?.[1] ?? "";
    const oldSecret = /^secret: +(\S+)$/m.exec(added.stdout)?.[1] ?? "";
    const bad = await kopek(
      "webhooks",
      "add",
      "--project",
      project,
      "--url",
      "https://shop.example/b",
      "--events",
      "invoice.nope",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--events");
    const private_ = await kopek(
      "webhooks",
      "add",
      "--project",
      project,
      "--url",
      "https://192.168.1.10/hooks",
    );
    expect(private_.code).toBe(2);
    expect(private_.stderr).toContain("private");

    const off = await kopek("webhooks", "update", id, "--project", project, "--enabled", "false");
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("disabled");
    expect(off.stdout).toContain("(disabled by the operator)");
    expect(off.stdout).toContain("customer.created,invoice.paid");
    expect(off.stdout).toContain('"Billing"');
    const on = await kopek(
      "webhooks",
      "update",
      id,
      "--project",
      project,
      "--enabled",
      "true",
      "--events",
      "all",
    );
    expect(on.stdout).toMatch(new RegExp(`^${id}  https://shop.example/a  enabled  all events  `));
    expect((await kopek("webhooks", "update", id, "--project", project, "--enabled", "maybe")).code).toBe(2);

    const rotated = await kopek("webhooks", "rotate-secret", id, "--project", project);
    expect(rotated.code).toBe(0);
    const newSecret = /^secret: +(\S+)$/m.exec(rotated.stdout)?.[1] ?? "";
    expect(isWebhookSecret(newSecret)).toBe(true);
    expect(newSecret).not.toBe(oldSecret);
    const [endpoint] = (await serverStorageOn(db, key).listWebhookEndpoints(project))._unsafeUnwrap();
    expect([endpoint?.secret, endpoint?.previousSecret]).toEqual([newSecret, oldSecret]);
    expect((await kopek("webhooks", "list", "--project", project)).stdout).toContain(
      "old secret signs until",
    );

    expect((await kopek("webhooks", "deliveries", id, "--project", project)).stdout).toBe(
      "No delivery attempts yet\n",
    );
    expect((await kopek("events", "list", "--project", project)).stdout).toBe("No events\n");
    const unknownEvent = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
    expect(await kopek("events", "redeliver", unknownEvent, "--project", project)).toMatchObject({
      code: 1,
      stderr: `kopek: no event ${unknownEvent} in project ${project}\n`,
    });
    expect((await kopek("events", "list", "--project", project, "--type", "nope")).code).toBe(2);
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
