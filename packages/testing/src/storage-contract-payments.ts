import { randomUUID } from "node:crypto";
import type { Payment, PaymentListPage } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, samplePayment, sampleSubscription } from "./fixtures.js";
import {
  completionOf,
  newClaim,
  type StorageFactory,
  savedProject,
  unwrap,
  unwrapErr,
} from "./storage-contract-support.js";

const PAGE: PaymentListPage = {
  limit: 100,
  before: null,
  invoiceId: null,
  subscriptionId: null,
  status: null,
};

/** Payments (API.md 10.2): stored alone or with the resource they settle, version-checked, listed by filter. */
export function describePaymentContract(factory: StorageFactory): void {
  describe("payments", () => {
    it("stores a payment as given and finds it only in its own project", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      // Amounts beyond 2^53 (bigint on PostgreSQL) and a null mask and provider id must come back exactly.
      const payment = samplePayment(project.id, {
        amount: { amount: "9007199254740993123", currency: "RUB" },
        amountRefunded: "9007199254740990001",
        methodMask: null,
        providerPaymentId: null,
        status: "canceled",
        failureCode: "payment_declined",
        succeededAt: null,
        canceledAt: new Date("2026-02-01T10:00:00.789Z"),
      });
      await unwrap(storage.savePayment(payment, []));
      expect(await unwrap(storage.findPayment(project.id, payment.id))).toEqual(payment);
      expect(await unwrap(storage.findPayment(randomUUID(), payment.id))).toBeNull();
      const known = samplePayment(project.id);
      await unwrap(storage.savePayment(known, []));
      const byProvider = (projectId: string, id: string) =>
        unwrap(storage.findPaymentByProviderId(projectId, id));
      expect(await byProvider(project.id, known.providerPaymentId as string)).toEqual(known);
      expect(await byProvider(randomUUID(), known.providerPaymentId as string)).toBeNull();
      expect(await byProvider(project.id, `pay_${randomUUID()}`)).toBeNull();
      expect(await unwrap(storage.findPayment(project.id, randomUUID()))).toBeNull();
    });

    it("writes version n only over n−1: a second version 1 or a stale update is a conflict", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const pending = samplePayment(project.id, { status: "pending", succeededAt: null });
      await unwrap(storage.savePayment(pending, []));
      expect((await unwrapErr(storage.savePayment(pending, []))).code).toBe("conflict");
      const succeeded: Payment = { ...pending, status: "succeeded", succeededAt: new Date(), version: 2 };
      await unwrap(storage.savePayment(succeeded, []));
      const stale: Payment = { ...pending, status: "canceled", failureCode: "expired", version: 2 };
      expect((await unwrapErr(storage.savePayment(stale, []))).code).toBe("conflict");
      const skipping: Payment = { ...succeeded, version: 4 };
      expect((await unwrapErr(storage.savePayment(skipping, []))).code).toBe("conflict");
      expect(await unwrap(storage.findPayment(project.id, pending.id))).toEqual(succeeded);
      const unknown = samplePayment(project.id, { version: 2 });
      expect((await unwrapErr(storage.savePayment(unknown, []))).code).toBe("conflict");
      expect(await unwrap(storage.findPayment(project.id, unknown.id))).toBeNull();
    });

    it("lists a project's payments newest first, by invoice, subscription and status, paged by id", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const other = await savedProject(storage);
      const invoiceId = randomUUID();
      const subscriptionId = randomUUID();
      const declined = samplePayment(project.id, {
        invoiceId,
        status: "canceled",
        failureCode: "payment_declined",
        succeededAt: null,
        canceledAt: new Date(),
      });
      const paid = samplePayment(project.id, { invoiceId });
      const cycle1 = samplePayment(project.id, { invoiceId: null, subscriptionId, cycle: 1 });
      const cycle2 = samplePayment(project.id, { invoiceId: null, subscriptionId, cycle: 2 });
      const elsewhere = samplePayment(other.id, { invoiceId });
      for (const payment of [declined, paid, cycle1, cycle2, elsewhere])
        await unwrap(storage.savePayment(payment, []));
      const ids = async (page: Partial<PaymentListPage>) =>
        (await unwrap(storage.listPayments(project.id, { ...PAGE, ...page }))).map((p) => p.id);

      expect(await ids({})).toEqual([cycle2.id, cycle1.id, paid.id, declined.id]);
      expect(await ids({ invoiceId })).toEqual([paid.id, declined.id]);
      expect(await ids({ subscriptionId })).toEqual([cycle2.id, cycle1.id]);
      expect(await ids({ status: "canceled" })).toEqual([declined.id]);
      expect(await ids({ invoiceId, status: "succeeded" })).toEqual([paid.id]);
      expect(await ids({ limit: 2 })).toEqual([cycle2.id, cycle1.id]);
      expect(await ids({ before: cycle1.id })).toEqual([paid.id, declined.id]);
      expect(await ids({ invoiceId: randomUUID() })).toEqual([]);
      expect(await unwrap(storage.listPayments(project.id, { ...PAGE, invoiceId }))).toEqual([
        paid,
        declined,
      ]);
    });

    it("stores an invoice's payments with the invoice, or neither", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const invoice = sampleInvoice(project.id);
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, { kind: "invoice", invoice })));
      const paid = {
        ...invoice,
        status: "paid" as const,
        method: "card" as const,
        paidAt: new Date(),
        version: 2,
      };
      const payment = samplePayment(project.id, { invoiceId: invoice.id });

      // A payment not at the version the write was based on fails the whole write.
      const stalePayment = samplePayment(project.id, { invoiceId: invoice.id, version: 2 });
      expect((await unwrapErr(storage.saveInvoice(paid, [], [payment, stalePayment]))).code).toBe("conflict");
      expect(await unwrap(storage.findInvoice(project.id, invoice.id))).toEqual(invoice);
      expect(await unwrap(storage.findPayment(project.id, payment.id))).toBeNull();

      await unwrap(storage.saveInvoice(paid, [], [payment]));
      expect(await unwrap(storage.findInvoice(project.id, invoice.id))).toEqual(paid);
      expect(await unwrap(storage.findPayment(project.id, payment.id))).toEqual(payment);

      // A stale invoice write stores none of its payments.
      const second = samplePayment(project.id, { invoiceId: invoice.id });
      expect((await unwrapErr(storage.saveInvoice(paid, [], [second]))).code).toBe("conflict");
      expect(await unwrap(storage.findPayment(project.id, second.id))).toBeNull();
    });

    it("stores a subscription's charges with the subscription: on completion and on every save", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const subscription = sampleSubscription(project.id);
      const first = samplePayment(project.id, { invoiceId: null, subscriptionId: subscription.id, cycle: 1 });
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      await unwrap(
        storage.completeIdempotencyKey({
          ...completionOf(claim, { kind: "subscription", subscription }),
          payments: [first],
        }),
      );
      expect(await unwrap(storage.findPayment(project.id, first.id))).toEqual(first);

      const renewed = { ...subscription, cyclesStarted: 2, version: 2 };
      const second = samplePayment(project.id, {
        invoiceId: null,
        subscriptionId: subscription.id,
        cycle: 2,
      });
      await unwrap(storage.saveSubscription(renewed, [], [second]));
      const third = samplePayment(project.id, { invoiceId: null, subscriptionId: subscription.id, cycle: 3 });
      expect((await unwrapErr(storage.saveSubscription(renewed, [], [third]))).code).toBe("conflict");
      const listed = await unwrap(
        storage.listPayments(project.id, { ...PAGE, subscriptionId: subscription.id }),
      );
      expect(listed).toEqual([second, first]);
    });

    it("leases due pending payments to one claim at a time, earliest first, and never final ones", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const at = (ms: number) => new Date(Date.parse("2026-03-01T10:00:00.000Z") + ms);
      const pending = (nextCheckAt: Date | null) =>
        samplePayment(project.id, { status: "pending", succeededAt: null, nextCheckAt });
      const later = pending(at(-1000));
      const earlier = pending(at(-2000));
      const notYet = pending(at(60_000));
      const final = samplePayment(project.id);
      for (const payment of [later, earlier, notYet, final]) await unwrap(storage.savePayment(payment, []));
      const claim = (now: Date, limit = 100) =>
        storage.claimPaymentChecks({ now, limit, leaseExpiresAt: new Date(now.getTime() + 30_000) });
      const ours = (payments: readonly { projectId: string; id: string }[]) =>
        payments.filter((p) => p.projectId === project.id).map((p) => p.id);

      const first = await unwrap(claim(at(0), 1));
      expect(ours(first)).toEqual([earlier.id]);
      expect(first[0]).toEqual({ ...earlier, nextCheckAt: at(30_000) });
      expect(ours(await unwrap(claim(at(0))))).toEqual([later.id]);
      // Leased: nothing more until the leases end, then both again (and the one now due).
      expect(ours(await unwrap(claim(at(1000))))).toEqual([]);
      expect(ours(await unwrap(claim(at(60_000)))).sort()).toEqual([earlier.id, later.id, notYet.id].sort());
      // A lease is not a change: the payment is still written over the version it was read at.
      const settled = {
        ...earlier,
        status: "succeeded" as const,
        succeededAt: at(61_000),
        nextCheckAt: null,
        version: 2,
      };
      await unwrap(storage.savePayment(settled, []));
      expect(ours(await unwrap(claim(at(200_000))))).not.toContain(earlier.id);
      expect(await unwrap(storage.findPayment(project.id, final.id))).toEqual(final);
    });

    it("counts the pending payments of every project by age, cumulatively", async () => {
      const storage = await factory();
      const [one, two] = [await savedProject(storage), await savedProject(storage)];
      const at = (ms: number) => new Date(Date.parse("2026-03-01T10:00:00.000Z") + ms);
      const cutoffs = [at(0), at(-60_000), at(-3_600_000)];
      // Other tests' payments may share this storage: only what these add is asserted.
      const before = await unwrap(storage.countPendingPayments(cutoffs));
      const pending = (projectId: string, createdAt: Date) =>
        samplePayment(projectId, { status: "pending", succeededAt: null, nextCheckAt: at(1000), createdAt });
      const payments = [
        pending(one.id, at(-10)),
        pending(two.id, at(-120_000)),
        pending(one.id, at(-7_200_000)),
        pending(two.id, at(5000)),
        samplePayment(one.id, { createdAt: at(-7_200_000) }),
      ];
      for (const payment of payments) await unwrap(storage.savePayment(payment, []));
      const after = await unwrap(storage.countPendingPayments(cutoffs));
      expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual([3, 2, 1]);
      expect(await unwrap(storage.countPendingPayments([]))).toEqual([]);
    });

    it("stores no payment of a completion whose lease was lost", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const subscription = sampleSubscription(project.id);
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const payment = samplePayment(project.id, {
        invoiceId: null,
        subscriptionId: subscription.id,
        cycle: 1,
      });
      const lost = await storage.completeIdempotencyKey({
        ...completionOf({ ...claim, leaseToken: randomUUID() }, { kind: "subscription", subscription }),
        payments: [payment],
      });
      expect(lost.isErr()).toBe(true);
      expect(await unwrap(storage.findPayment(project.id, payment.id))).toBeNull();
    });
  });
}
