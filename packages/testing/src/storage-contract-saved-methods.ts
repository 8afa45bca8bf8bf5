import { randomUUID } from "node:crypto";
import type { InspectableStorage, Invoice, Payment, Subscription } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, samplePayment, sampleSubscription } from "./fixtures.js";
import {
  completionOf,
  newClaim,
  rowsContaining,
  type StorageContractOptions,
  type StorageFactory,
  savedProject,
  serializedStorage,
  storeResource,
  unwrap,
  unwrapErr,
} from "./storage-contract-support.js";

const PAID_AT = new Date("2026-02-01T10:00:00.123Z");

/**
 * A created invoice that asked to save the payer's method, stored; then paid with its payment, the
 * provider's token kept as its saved method (as settlement writes it, API.md 10.5).
 */
async function paidSavingInvoice(
  storage: InspectableStorage,
  projectId: string,
  token = `pm_saved_${randomUUID()}`,
): Promise<{ paid: Invoice; payment: Payment; token: string }> {
  const created = sampleInvoice(projectId, { id: randomUUID(), savePaymentMethod: true });
  await storeResource(storage, projectId, { kind: "invoice", invoice: created });
  const payment = samplePayment(projectId, { invoiceId: created.id, succeededAt: PAID_AT });
  const paid: Invoice = {
    ...created,
    status: "paid",
    method: "card",
    paidAt: PAID_AT,
    savedMethod: { method: "card", methodMask: "2200 70** **** 1234", providerMethodRef: token },
    version: created.version + 1,
  };
  await unwrap(storage.saveInvoice(paid, [], [payment]));
  return { paid, payment, token };
}

/** Saved methods at checkout and subscriptions made from a paid invoice (API.md 10.5). */
export function describeSavedMethodContract(factory: StorageFactory, options: StorageContractOptions): void {
  const parallel = options.concurrency ?? 50;

  describe("saved methods and subscriptions from an invoice", () => {
    it("keeps a paid invoice's saved method, token included, wherever the invoice is read", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const { paid } = await paidSavingInvoice(storage, project.id);
      expect(await unwrap(storage.findInvoice(project.id, paid.id))).toEqual(paid);
      expect(await unwrap(storage.findInvoiceById(paid.id))).toEqual(paid);
      const page = { limit: 10, before: null, status: null, now: PAID_AT };
      expect(await unwrap(storage.listInvoices(project.id, page))).toEqual([paid]);
      expect(await unwrap(storage.findInvoice(randomUUID(), paid.id))).toBeNull();
    });

    it("keeps a link's saves with their refs, and lists the subscriptions holding a pending one (API.md 11.5)", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const subscription = sampleSubscription(project.id, { id: randomUUID() });
      await storeResource(storage, project.id, { kind: "subscription", subscription });
      const startedAt = new Date("2026-02-01T10:00:00.000Z");
      const save = (state: "pending" | "failed", ref: string | null) =>
        ({ id: randomUUID(), method: "card", ref, state, startedAt }) as const;
      const pending = save("pending", `pm_${randomUUID()}`);
      const withSaves: Subscription = {
        ...subscription,
        methodUpdate: {
          id: randomUUID(),
          createdAt: startedAt,
          expiresAt: new Date(startedAt.getTime() + 86_400_000),
          attempts: 2,
          completedBy: null,
          completedAt: null,
          saves: [save("failed", null), pending],
        },
        version: subscription.version + 1,
      };
      await unwrap(storage.saveSubscription(withSaves, [], []));
      expect(await unwrap(storage.findSubscription(project.id, subscription.id))).toEqual(withSaves);
      const listed = async () => (await unwrap(storage.listPendingMethodSaves(1000))).map((s) => s.id);
      expect(await listed()).toContain(subscription.id);
      const found = (await unwrap(storage.listPendingMethodSaves(1000))).find(
        (s) => s.id === subscription.id,
      );
      expect(found).toEqual(withSaves);
      const ended: Subscription = {
        ...withSaves,
        methodUpdate: {
          ...(withSaves.methodUpdate as NonNullable<Subscription["methodUpdate"]>),
          saves: [withSaves.methodUpdate?.saves[0] as never, { ...pending, state: "failed", ref: null }],
        },
        version: withSaves.version + 1,
      };
      await unwrap(storage.saveSubscription(ended, [], []));
      expect(await listed()).not.toContain(subscription.id);
      expect(await unwrap(storage.listPendingMethodSaves(0))).toEqual([]);
    });

    it("keeps a saved method without a mask, and an invoice that saved nothing as null", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const { paid } = await paidSavingInvoice(storage, project.id);
      const unmasked: Invoice = {
        ...paid,
        savedMethod: { method: "sbp", methodMask: null, providerMethodRef: `pm_${randomUUID()}` },
        version: paid.version + 1,
      };
      await unwrap(storage.saveInvoice(unmasked, [], []));
      expect(await unwrap(storage.findInvoice(project.id, paid.id))).toEqual(unmasked);
      const plain = sampleInvoice(project.id, { id: randomUUID() });
      await storeResource(storage, project.id, { kind: "invoice", invoice: plain });
      expect(await unwrap(storage.findInvoice(project.id, plain.id))).toMatchObject({
        savePaymentMethod: false,
        savedMethod: null,
      });
    });

    it("keeps the invoice a subscription was made from, with the token the renewals charge", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const { paid, token } = await paidSavingInvoice(storage, project.id);
      const subscription = sampleSubscription(project.id, { invoiceId: paid.id, providerMethodRef: token });
      await storeResource(storage, project.id, { kind: "subscription", subscription });
      expect(await unwrap(storage.findSubscription(project.id, subscription.id))).toEqual(subscription);
    });

    it("refuses a second subscription from one invoice as a duplicate, writing nothing of it", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const invoiceId = randomUUID();
      const first = sampleSubscription(project.id, { invoiceId });
      await storeResource(storage, project.id, { kind: "subscription", subscription: first });
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const second = sampleSubscription(project.id, { invoiceId });
      const completion = completionOf(claim, { kind: "subscription", subscription: second });
      expect((await unwrapErr(storage.completeIdempotencyKey(completion))).code).toBe("duplicate");
      expect(await unwrap(storage.findSubscription(project.id, second.id))).toBeNull();
      expect(await rowsContaining(storage, "subscriptions", second.id)).toEqual([]);
      const marker = JSON.parse(completion.response.body).marker as string;
      expect(await rowsContaining(storage, "idempotency_records", marker)).toEqual([]);
      // Another project's subscription may name the same invoice id: the rule is per project.
      const other = await savedProject(storage);
      const elsewhere = sampleSubscription(other.id, { invoiceId });
      await storeResource(storage, other.id, { kind: "subscription", subscription: elsewhere });
      expect(await unwrap(storage.findSubscription(other.id, elsewhere.id))).toEqual(elsewhere);
    });

    it(`lets exactly one of ${parallel} parallel subscriptions from one invoice be stored`, async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const invoiceId = randomUUID();
      const claims = Array.from({ length: parallel }, () => newClaim(project.id, Date.now()));
      await Promise.all(claims.map((claim) => unwrap(storage.claimIdempotencyKey(claim))));
      const results = await Promise.all(
        claims.map((claim) => {
          const subscription = sampleSubscription(project.id, { invoiceId });
          return storage.completeIdempotencyKey(completionOf(claim, { kind: "subscription", subscription }));
        }),
      );
      expect(results.filter((r) => r.isOk())).toHaveLength(1);
      expect(results.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr().code)).toEqual(
        Array(parallel - 1).fill("duplicate"),
      );
      expect(await rowsContaining(storage, "subscriptions", invoiceId)).toHaveLength(1);
    });

    // Only for adapters that encrypt at rest; memory storage holds the token in process memory.
    if (options.encryptsMethodTokens) {
      it("persists no saved method's token in plain text, in any row", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const { paid, token } = await paidSavingInvoice(storage, project.id);
        const subscription = sampleSubscription(project.id, { invoiceId: paid.id, providerMethodRef: token });
        await storeResource(storage, project.id, { kind: "subscription", subscription });
        expect(await serializedStorage(storage)).not.toContain(token);
        expect(await unwrap(storage.findInvoice(project.id, paid.id))).toEqual(paid);
      });
    }
  });
}
