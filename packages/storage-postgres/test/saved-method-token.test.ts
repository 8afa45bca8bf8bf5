import { randomBytes, randomUUID } from "node:crypto";
import type { Invoice, Subscription } from "@kopek/core";
import { sampleInvoice, samplePayment, sampleProject, sampleSubscription } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresStorage, createTokenCipher, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// A saved method's token at rest (API.md 10.5): what a database dump would show of it.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);
const storage = createPostgresStorage({ pool: db.pool, encryption: testCipher() });

/** A paid invoice whose payment saved the payer's card, stored as settlement stores it. */
async function paidInvoiceWithSavedCard(): Promise<Invoice & { savedMethod: { providerMethodRef: string } }> {
  const project = sampleProject();
  (await storage.saveProject(project))._unsafeUnwrap();
  const created = sampleInvoice(project.id, { id: randomUUID(), savePaymentMethod: true });
  await storeThroughKey(project.id, created.id, { kind: "invoice", invoice: created });
  const savedMethod = {
    method: "card" as const,
    methodMask: "2200 70** **** 1234",
    providerMethodRef: `pm_${randomBytes(16).toString("hex")}`,
  };
  const paid = {
    ...created,
    status: "paid" as const,
    paidAt: new Date(),
    method: "card" as const,
    savedMethod,
  };
  const payment = samplePayment(project.id, { invoiceId: created.id });
  (await storage.saveInvoice({ ...paid, version: 2 }, [], [payment]))._unsafeUnwrap();
  return { ...paid, version: 2 };
}

interface RawRow {
  readonly whole: string;
  readonly saved_method: string | null;
  readonly saved_method_mask: string | null;
  readonly saved_method_ref_ciphertext: Buffer;
  readonly saved_method_ref_key_id: string | null;
}

async function rawRow(id: string): Promise<RawRow> {
  const { rows } = await db.queryAcrossProjects<RawRow>(
    `SELECT to_jsonb(invoices)::text AS whole, saved_method, saved_method_mask,
            saved_method_ref_ciphertext, saved_method_ref_key_id
       FROM invoices WHERE id = $1`,
    [id],
  );
  const [row] = rows;
  if (row === undefined) throw new Error(`no invoice ${id}`);
  return row;
}

describe(`saved methods' tokens on PostgreSQL (${db.backend})`, () => {
  it("stores the token encrypted in its own column, and reads it back decrypted", async () => {
    const invoice = await paidInvoiceWithSavedCard();
    const token = invoice.savedMethod.providerMethodRef;
    const row = await rawRow(invoice.id);
    expect(row).toMatchObject({
      saved_method: "card",
      saved_method_mask: "2200 70** **** 1234",
      saved_method_ref_key_id: "test",
    });
    expect(Buffer.isBuffer(row.saved_method_ref_ciphertext)).toBe(true);
    expect(row.saved_method_ref_ciphertext.toString("latin1")).not.toContain(token);
    expect(row.saved_method_ref_ciphertext.toString("hex")).not.toContain(Buffer.from(token).toString("hex"));
    expect(row.whole).not.toContain(token);
    expect((await storage.findInvoice(invoice.projectId, invoice.id))._unsafeUnwrap()).toEqual(invoice);
  });

  it("refuses a ciphertext copied onto another invoice, and a read with the wrong key", async () => {
    const [first, second] = [await paidInvoiceWithSavedCard(), await paidInvoiceWithSavedCard()];
    // Read, then written: the two invoices belong to two projects (two shards on Citus).
    const copied = await rawRow(first.id);
    await db.pool.query(
      "UPDATE invoices SET saved_method_ref_ciphertext = $1 WHERE project_id = $2 AND id = $3",
      [copied.saved_method_ref_ciphertext, second.projectId, second.id],
    );
    expect((await storage.findInvoice(second.projectId, second.id)).isErr()).toBe(true);
    const otherKey = createTokenCipher({
      keys: [{ id: "test", key: randomBytes(32) }],
      currentKeyId: "test",
    });
    const wrong = createPostgresStorage({ pool: db.pool, encryption: otherKey });
    expect((await wrong.findInvoice(first.projectId, first.id)).isErr()).toBe(true);
  });

  it("keeps a pending method save's ref encrypted, bound to its subscription and save (API.md 11.5)", async () => {
    const project = sampleProject();
    (await storage.saveProject(project))._unsafeUnwrap();
    const [subscription, other] = [
      await storedSubscription(project.id),
      await storedSubscription(project.id),
    ];
    const token = `pm_save_${randomUUID()}`;
    const now = new Date();
    const withSave: Subscription = {
      ...subscription,
      methodUpdate: {
        id: randomUUID(),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        attempts: 1,
        completedBy: null,
        completedAt: null,
        saves: [{ id: randomUUID(), method: "card", ref: token, state: "pending", startedAt: now }],
      },
      version: subscription.version + 1,
    };
    (await storage.saveSubscription(withSave, [], []))._unsafeUnwrap();
    const { rows } = await db.pool.query(
      "SELECT s::text AS whole, method_update FROM subscriptions s WHERE project_id = $1 AND id = $2",
      [project.id, subscription.id],
    );
    expect(rows[0].whole).not.toContain(token);
    expect(rows[0].method_update.saves[0].refCiphertext).toEqual(expect.any(String));
    expect((await storage.findSubscription(project.id, subscription.id))._unsafeUnwrap()).toEqual(withSave);
    // Copied onto another subscription, the ciphertext does not decrypt: the read fails, nothing is misread.
    await db.pool.query("UPDATE subscriptions SET method_update = $1 WHERE project_id = $2 AND id = $3", [
      rows[0].method_update,
      project.id,
      other.id,
    ]);
    expect((await storage.findSubscription(project.id, other.id)).isErr()).toBe(true);
  });
});

/** A subscription of `projectId`, stored the only way the port allows (a completed idempotency key). */
async function storedSubscription(projectId: string): Promise<Subscription> {
  const subscription = sampleSubscription(projectId, { id: randomUUID() });
  await storeThroughKey(projectId, subscription.id, { kind: "subscription", subscription });
  return subscription;
}

/** Stores `resource` as the outcome of a claimed and completed idempotency key, as a create does. */
async function storeThroughKey(
  projectId: string,
  recordId: string,
  resource: { kind: "invoice"; invoice: Invoice } | { kind: "subscription"; subscription: Subscription },
): Promise<void> {
  const now = new Date();
  const claim = {
    projectId,
    key: `key-${randomUUID()}`,
    fingerprint: "f".repeat(64),
    recordId,
    leaseToken: randomUUID(),
    now,
    leaseExpiresAt: new Date(now.getTime() + 30_000),
    expiresAt: new Date(now.getTime() + 86_400_000),
    apiKeyId: null,
  };
  (await storage.claimIdempotencyKey(claim))._unsafeUnwrap();
  const response = { status: 201, headers: {}, body: "{}" };
  (
    await storage.completeIdempotencyKey({ ...claim, response, resource, events: [], payments: [] })
  )._unsafeUnwrap();
}
