import { randomBytes, randomUUID } from "node:crypto";
import { sampleSubscription } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { kopekOn, serverStorageOn, storedAsTheApiWould } from "./cli-in-process.js";

// `kopek subscriptions cancel` in this process, on a fresh database (API.md 11.2 from the CLI).
const db = await openTestDatabase();
afterAll(() => db.close());
const key = randomBytes(32);
const kopek = (...argv: string[]) => kopekOn(db, argv, { KOPEK_ENCRYPTION_KEY: key.toString("base64") });

/**
 * A migrated database with a new project named `name`, and in it an active subscription due in ten
 * days, stored as the API would have: the project's id, the server's storage and the subscription.
 */
async function shopWithSubscription(name: string) {
  expect((await kopek("migrate")).code).toBe(0);
  const project = (await kopek("projects", "create", "--name", name)).stdout.trim();
  const storage = serverStorageOn(db, key);
  const nextChargeAt = new Date(Date.now() + 10 * 86_400_000);
  const subscription = sampleSubscription(project, {
    id: randomUUID(),
    nextChargeAt,
    nextAttemptAt: nextChargeAt,
  });
  await storedAsTheApiWould(storage, { kind: "subscription", subscription });
  return { project, storage, subscription, nextChargeAt };
}

describe(`kopek subscriptions cancel (${db.backend})`, () => {
  it("cancels at period end, undoes it, cancels now, and refuses what the API refuses", async () => {
    const { project, storage, subscription, nextChargeAt } = await shopWithSubscription("shop");
    const cancel = (...options: string[]) =>
      kopek("subscriptions", "cancel", subscription.id, "--project", project, ...options);

    const scheduled = await cancel("--at-period-end");
    expect(scheduled).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(scheduled.stdout)).toMatchObject({
      id: subscription.id,
      status: "active",
      cancelAt: nextChargeAt.toISOString(),
      cancelAtPeriodEnd: true,
    });
    const undone = await cancel("--undo");
    expect(JSON.parse(undone.stdout)).toMatchObject({ status: "active", cancelAt: null });
    const now = await cancel();
    expect(JSON.parse(now.stdout)).toMatchObject({ status: "canceled", cancelReason: "requested" });
    const saved = (await storage.findSubscription(project, subscription.id))._unsafeUnwrap();
    expect(saved).toMatchObject({ status: "canceled", cancelAt: null });
    const events = (await storage.listEventDeliveries(project))._unsafeUnwrap().map((d) => d.event.type);
    expect(events).toEqual(["subscription.updated", "subscription.updated", "subscription.canceled"]);

    const again = await cancel("--at-period-end");
    expect(again).toMatchObject({ code: 1 });
    expect(again.stderr).toMatch(/invalid_state: the subscription is already canceled/);
    const missing = await kopek("subscriptions", "cancel", randomUUID(), "--project", project);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no subscription .* in project/);
    expect((await cancel("--at-period-end", "--undo")).code).toBe(2);
    expect((await kopek("subscriptions", "cancel", "not-a-uuid", "--project", project)).code).toBe(2);
    expect((await kopek("keys", "list", "--project", project, "--undo")).code).toBe(2);
  });
});

describe(`kopek subscriptions pause|resume and customers erase (${db.backend})`, () => {
  it("pauses and undoes it, resumes a paused one with a charge, erases a customer, as the API does", async () => {
    const {
      project,
      storage,
      subscription: active,
      nextChargeAt,
    } = await shopWithSubscription("paused shop");
    const run = (command: string, id: string) => kopek(...command.split(" "), id, "--project", project);

    const pausing = await run("subscriptions pause", active.id);
    expect(pausing).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(pausing.stdout)).toMatchObject({
      status: "active",
      pauseAt: nextChargeAt.toISOString(),
    });
    const undone = await run("subscriptions resume", active.id);
    expect(JSON.parse(undone.stdout)).toMatchObject({ status: "active", pauseAt: null, cyclesStarted: 1 });
    expect((await run("subscriptions resume", active.id)).stderr).toMatch(/^kopek: invalid_state: /);

    // One the worker paused a month ago: resumed, it is charged at once through the project's provider.
    const pausedAt = new Date(Date.now() - 30 * 86_400_000);
    const paused = sampleSubscription(project, {
      id: randomUUID(),
      status: "paused",
      pauseAt: pausedAt,
      nextChargeAt: pausedAt,
      nextAttemptAt: pausedAt,
    });
    await storedAsTheApiWould(storage, { kind: "subscription", subscription: paused });
    const resumed = await run("subscriptions resume", paused.id);
    expect(resumed).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      status: "active",
      pauseAt: null,
      cyclesStarted: paused.cyclesStarted + 1,
    });
    const page = { limit: 10, before: null, invoiceId: null, status: null, subscriptionId: paused.id };
    const payments = (await storage.listPayments(project, page))._unsafeUnwrap();
    expect(payments.map((p) => [p.kind, p.status, p.cycle])).toEqual([
      ["cycle", "succeeded", paused.nextCycle + 1],
    ]);

    const customer = {
      id: randomUUID(),
      projectId: project,
      email: "erase.me@example.com",
      phone: "+79991234567",
      name: "Erase Me",
      externalId: "crm-7",
      metadata: {},
      createdAt: new Date(),
      erasedAt: null,
      version: 1,
    };
    (await storage.saveCustomer(customer, []))._unsafeUnwrap();
    const erased = await run("customers erase", customer.id);
    expect(erased).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(erased.stdout)).toMatchObject({
      email: null,
      phone: null,
      name: null,
      externalId: "crm-7",
    });
    const events = (await storage.listEventDeliveries(project))._unsafeUnwrap().map((d) => d.event.type);
    expect(events).toEqual([
      "subscription.updated",
      "subscription.updated",
      "subscription.resumed",
      "customer.erased",
    ]);
    expect((await run("customers erase", randomUUID())).stderr).toMatch(/no customer .* in project/);
    expect((await kopek("subscriptions", "pause", "nope", "--project", project)).code).toBe(2);
  });
});

describe(`kopek subscriptions method-update (${db.backend})`, () => {
  it("prints a 24-hour link at KOPEK_PUBLIC_URL (else where kopek serve listens by default) and refuses a canceled subscription", async () => {
    const { project, storage, subscription } = await shopWithSubscription("new card shop");
    const link = await kopekOn(
      db,
      ["subscriptions", "method-update", subscription.id, "--project", project],
      {
        KOPEK_ENCRYPTION_KEY: key.toString("base64"),
        KOPEK_PUBLIC_URL: "https://pay.example.com/kopek/",
      },
    );
    expect(link).toMatchObject({ code: 0, stderr: "" });
    const printed = JSON.parse(link.stdout) as { url: string; expiresAt: string };
    const saved = (await storage.findSubscription(project, subscription.id))._unsafeUnwrap();
    expect(printed.url).toBe(
      `https://pay.example.com/kopek/method/${project}/${subscription.id}/${saved?.methodUpdate?.id}`,
    );
    expect(Date.parse(printed.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    // Without KOPEK_PUBLIC_URL: where `kopek serve` listens by default.
    const local = await kopek("subscriptions", "method-update", subscription.id, "--project", project);
    expect(JSON.parse(local.stdout).url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:3000/method/${project}/`),
    );
    expect((await kopek("subscriptions", "cancel", subscription.id, "--project", project)).code).toBe(0);
    const refused = await kopek("subscriptions", "method-update", subscription.id, "--project", project);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/invalid_state: the subscription is canceled/);
  });
});
