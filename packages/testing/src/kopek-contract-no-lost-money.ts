import { refundAsOperator } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { list, restartedReconciler, unaccountedCharges } from "./kopek-contract-no-lost-charge.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const refundsPath = (paymentId: string) => `/v1/payments/${paymentId}/refunds`;
const amountOf = (listed: Record<string, unknown>, field = "amount") =>
  BigInt((listed[field] as { amount: string }).amount);

/** A subscription's first charge: the id of a succeeded payment of 149900 RUB. */
async function paidPayment(h: KopekHarness): Promise<string> {
  const subscriptionId = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
  const [payment] = await list(h, "/v1/payments", { subscriptionId });
  return payment?.id as string;
}

/**
 * Everything in the provider's books that Kopek cannot account for: a charge with no succeeded
 * Payment (unaccountedCharges); a payment a payer paid that no succeeded Payment records; a refund
 * no stored Refund records as it stands; a payment whose refunds at the provider differ from its
 * `amountRefunded`. Empty is the promise of issue 38, on every path that moves money.
 */
async function unrecordedMoney(h: KopekHarness): Promise<string[]> {
  const unrecorded = await unaccountedCharges(h);
  const payments = await list(h, "/v1/payments");
  // The provider's refund id is Kopek's own record, never shown by the API: read from storage.
  const page = { limit: 100, before: null, paymentId: null, status: null };
  const refunds = (await h.storage.listRefunds(h.project.id, page))._unsafeUnwrap();
  for (const id of h.provider.paymentIds()) {
    const atProvider = (await h.provider.getPayment(id))._unsafeUnwrap();
    const recorded = payments.find((p) => p.providerPaymentId === id);
    if (atProvider.status === "succeeded" && recorded?.status !== "succeeded")
      unrecorded.push(`${id}: paid at the provider, no succeeded Payment records it`);
  }
  const refundedAt = new Map<string, bigint>();
  for (const made of h.provider.refundsMade()) {
    const recorded = refunds.find((r) => r.providerRefundId === made.providerRefundId);
    if (recorded?.status !== made.status)
      unrecorded.push(`${made.providerRefundId}: ${made.status} at the provider, no Refund records it so`);
    if (made.status === "succeeded")
      refundedAt.set(
        made.providerPaymentId,
        (refundedAt.get(made.providerPaymentId) ?? 0n) + BigInt(made.money.amount),
      );
  }
  for (const payment of payments) {
    const atProvider = refundedAt.get(String(payment.providerPaymentId)) ?? 0n;
    if (amountOf(payment, "amountRefunded") !== atProvider)
      unrecorded.push(`${String(payment.id)}: refunded ${atProvider} at the provider`);
  }
  return unrecorded;
}

/**
 * Issue 38, invoices and refunds: an invoice's attempt and a refund are stored pending before the
 * provider is called, so when the write after the call fails, reconciliation (after a restart) finds
 * them and settles them on the provider's word — the money recorded, never moved twice.
 */
export function registerNoLostMoneyTests(options: KopekContractOptions): void {
  describe("no money moved without a record", () => {
    it("an invoice attempt whose write after createPayment fails: the payer pays, a restarted reconciler records it", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      // The attempt's record commits with the invoice; the write of the provider's answer fails.
      h.storageFaults.failWrite("savePayment");
      expect((await h.kopek.startPayment({ invoiceId: id, method: "card" })).isErr()).toBe(true);
      const [open] = await list(h, "/v1/payments", { invoiceId: id });
      expect(open).toMatchObject({ status: "pending", providerPaymentId: null });
      expect(h.provider.paymentIds()).toHaveLength(1);
      const [made] = h.provider.paymentIds();
      h.provider.confirm(made as string, "succeed");
      expect(await unrecordedMoney(h)).not.toEqual([]);

      h.clock.advance(2 * MINUTE_MS);
      await restartedReconciler(h).runOnce();
      expect(json(await h.get(`/v1/invoices/${id}`))).toMatchObject({ status: "paid", method: "card" });
      expect(await list(h, "/v1/payments", { invoiceId: id })).toEqual([
        expect.objectContaining({ id: open?.id, status: "succeeded", providerPaymentId: made }),
      ]);
      expect(h.provider.paymentIds()).toHaveLength(1);
      expect(await unrecordedMoney(h)).toEqual([]);
    });

    it("an invoice payment whose settling write fails after the payer paid: reconciliation completes it", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const started = (await h.kopek.startPayment({ invoiceId: id, method: "sbp" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("not payable");
      const made = started.payment.providerPaymentId as string;
      h.provider.confirm(made, "succeed");
      h.storageFaults.failWrite("saveInvoice");
      const back = await h.kopek.checkPayment({ invoiceId: id, paymentId: started.payment.id });
      expect(back.isErr()).toBe(true);
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("created");
      expect(await unrecordedMoney(h)).not.toEqual([]);

      h.clock.advance(2 * MINUTE_MS);
      expect(await restartedReconciler(h).runOnce()).toMatchObject({ settled: 1 });
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("paid");
      expect(await list(h, "/v1/payments", { invoiceId: id })).toEqual([
        expect.objectContaining({ status: "succeeded", providerPaymentId: made }),
      ]);
      expect(await unrecordedMoney(h)).toEqual([]);
    });

    it("a refund whose write after refundPayment fails stays pending, holding its amount, until reconciliation settles it once", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.storageFaults.failWrite("saveRefund");
      const created = await h.call(refundsPath(paymentId), { amount: { amount: "50000", currency: "RUB" } });
      expect(created.status).toBe(201);
      expect(json(created)).toMatchObject({ status: "pending", succeededAt: null });
      expect(h.provider.refundsMade()).toHaveLength(1);
      // It holds its amount: the rest is all that can still be refunded.
      const over = await h.call(refundsPath(paymentId), { amount: { amount: "99901", currency: "RUB" } });
      expect(json(over).code).toBe("refund_exceeds_payment");

      h.clock.advance(2 * MINUTE_MS);
      expect(await restartedReconciler(h).runOnce()).toMatchObject({ settled: 1 });
      expect(json(await h.get(`/v1/refunds/${json(created).id as string}`)).status).toBe("succeeded");
      expect(amountOf(json(await h.get(`/v1/payments/${paymentId}`)), "amountRefunded")).toBe(50000n);
      h.clock.advance(DAY_MS);
      expect(await restartedReconciler(h).runOnce()).toMatchObject({ claimed: 0 });
      expect(h.provider.refundsMade()).toHaveLength(1);
      expect(await unrecordedMoney(h)).toEqual([]);
    });

    it("a refund request whose writes fail after the refund: a retry with its key and reconciliation never refund twice", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.storageFaults.failWrite("saveRefund");
      h.storageFaults.failWrite("completeIdempotencyKey");
      expect((await h.call(refundsPath(paymentId), {}, "refund-1")).status).toBe(500);
      expect(h.provider.refundsMade()).toHaveLength(1);
      const retried = await h.call(refundsPath(paymentId), {}, "refund-1");
      expect(retried.status).toBe(201);
      expect(json(retried)).toMatchObject({ status: "succeeded", amount: invoiceBody().amount });
      h.clock.advance(2 * MINUTE_MS);
      expect(await restartedReconciler(h).runOnce()).toMatchObject({ claimed: 0 });
      expect((await h.call(refundsPath(paymentId), {}, "refund-1")).status).toBe(200);
      expect(h.provider.refundsMade()).toHaveLength(1);
      expect(await list(h, "/v1/refunds")).toHaveLength(1);
      expect(await unrecordedMoney(h)).toEqual([]);
    });

    it("an operator's refund whose write after refundPayment fails: reconciliation settles that refund, never another", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.storageFaults.failWrite("saveRefund");
      const operator = { storage: h.storage, providerFor: () => h.provider, clock: h.clock };
      const request = { projectId: h.project.id, paymentId, amount: null, reason: "operator" };
      expect((await refundAsOperator(operator, request))._unsafeUnwrap().status).toBe("pending");
      // Run again by an operator who saw no success: nothing remains to refund.
      expect((await refundAsOperator(operator, request))._unsafeUnwrapErr().code).toBe(
        "refund_exceeds_payment",
      );
      h.clock.advance(2 * MINUTE_MS);
      await restartedReconciler(h).runOnce();
      expect(amountOf(json(await h.get(`/v1/payments/${paymentId}`)), "amountRefunded")).toBe(149900n);
      expect(h.provider.refundsMade()).toHaveLength(1);
      expect(await unrecordedMoney(h)).toEqual([]);
    });

    it("a record that cannot be written stops its path before the provider is called: nothing moves, on every path", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const paymentId = await paidPayment(h);
      const invoiceId = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      h.storageFaults.failWrite("savePayment");
      expect((await h.call("/v1/subscriptions", subscriptionBody())).status).toBe(500);
      h.storageFaults.failWrite("saveInvoice");
      expect((await h.kopek.startPayment({ invoiceId, method: "card" })).isErr()).toBe(true);
      h.clock.advance(31 * DAY_MS);
      h.storageFaults.failWrite("saveSubscription");
      expect(await h.worker({ onError: () => {} }).runOnce()).toMatchObject({ charged: 0 });
      h.storageFaults.failWrite("reserveRefund");
      expect((await h.call(refundsPath(paymentId), {})).status).toBe(500);
      expect(h.storageFaults.failed()).toBe(4);
      const books = [
        h.provider.chargesMade(),
        h.provider.paymentIds().length,
        h.provider.refundsMade().length,
      ];
      expect(books).toEqual([1, 0, 0]);
      expect(await unrecordedMoney(h)).toEqual([]);
    });

    it("every path, each with its final write failing after the provider moved money: the provider's books all map to records", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      // Subscription create: the write after the charge fails, and the request is never retried.
      h.storageFaults.failWrite("completeIdempotencyKey");
      expect((await h.call("/v1/subscriptions", subscriptionBody())).status).toBe(500);
      // Renewal: the write of the charge's answer fails.
      const subscriptionId = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.clock.advance(31 * DAY_MS);
      h.storageFaults.failWrite("saveSubscription", { skip: 1 });
      await h.worker({ onError: () => {} }).runOnce();
      // Invoice attempt: the write after createPayment fails; the payer pays anyway.
      const unsaved = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      h.storageFaults.failWrite("savePayment");
      await h.kopek.startPayment({ invoiceId: unsaved, method: "card" });
      h.provider.confirm(h.provider.paymentIds().at(-1) as string, "succeed");
      // Invoice settled: the payer paid, the write of the success fails.
      const unsettled = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const started = (await h.kopek.startPayment({ invoiceId: unsettled, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error("not payable");
      h.provider.confirm(started.payment.providerPaymentId as string, "succeed");
      h.storageFaults.failWrite("saveInvoice");
      await h.kopek.checkPayment({ invoiceId: unsettled, paymentId: started.payment.id });
      // Refund: the write of the provider's answer fails.
      const [charge] = await list(h, "/v1/payments", { subscriptionId, status: "succeeded" });
      h.storageFaults.failWrite("saveRefund");
      await h.call(refundsPath(charge?.id as string), { amount: { amount: "100", currency: "RUB" } });
      expect(h.storageFaults.failed()).toBe(5);
      expect(await unrecordedMoney(h)).not.toEqual([]);

      // The restart: the worker and the reconciler run again over the same storage.
      h.clock.advance(2 * MINUTE_MS);
      await h.worker().runOnce();
      await restartedReconciler(h).runOnce();
      expect([h.provider.chargesMade(), h.provider.paymentIds().length]).toEqual([3, 2]);
      expect(await unrecordedMoney(h)).toEqual([]);
      for (const id of [unsaved, unsettled])
        expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("paid");
      expect(json(await h.get(`/v1/subscriptions/${subscriptionId}`)).cyclesStarted).toBe(2);
    });
  });
}
