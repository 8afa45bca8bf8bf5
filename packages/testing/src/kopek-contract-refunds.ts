import type { EventType } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { reconcilerOf } from "./harness-reads.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  payThroughProvider,
  subscriptionBody,
} from "./kopek-harness.js";

const MINUTE_MS = 60_000;

// The sandbox's refs whose refunds are refused, or pending until next asked about.
const REFUND_FAIL_REF = "sandbox_refund_fail_contract";
const REFUND_PENDING_REF = "sandbox_refund_pending_contract";

/** A subscription's first charge: a succeeded payment of 149900 RUB. */
async function paidPayment(h: KopekHarness, ref?: string): Promise<string> {
  const subscriptionId = json(await h.call("/v1/subscriptions", subscriptionBody(ref))).id as string;
  const [payment] = json(await h.get("/v1/payments", { subscriptionId })).data as { id: string }[];
  if (payment === undefined) throw new Error("the subscription recorded no payment");
  return payment.id;
}

const refundsPath = (paymentId: string) => `/v1/payments/${paymentId}/refunds`;
const rub = (amount: string) => ({ amount, currency: "RUB" });

async function refundedOf(h: KopekHarness, paymentId: string): Promise<string> {
  return (json(await h.get(`/v1/payments/${paymentId}`)).amountRefunded as { amount: string }).amount;
}

async function eventsOf(h: KopekHarness, type: EventType): Promise<Record<string, unknown>[]> {
  const stored = (await h.storage.listEventDeliveries(h.project.id))._unsafeUnwrap();
  return stored
    .filter(({ event }) => event.type === type)
    .map(({ event }) => event.data as Record<string, unknown>);
}

/** API.md 10.6: refunds of succeeded payments, never more than remains, reconciled while pending. */
export function registerRefundTests(options: KopekContractOptions): void {
  describe("refunds", () => {
    it("refunds all that remains without a body, and nothing more after", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      const created = await h.call(refundsPath(paymentId), undefined);
      expect(created.status).toBe(201);
      const refund = json(created);
      expect(refund).toEqual({
        id: expect.any(String),
        paymentId,
        status: "succeeded",
        amount: rub("149900"),
        reason: null,
        createdAt: "2026-01-31T10:00:00.000Z",
        succeededAt: "2026-01-31T10:00:00.000Z",
      });
      expect(created.headers.location).toBe(`/v1/refunds/${refund.id as string}`);
      expect(await refundedOf(h, paymentId)).toBe("149900");
      expect(json(await h.get(`/v1/refunds/${refund.id as string}`))).toEqual(refund);
      expect(json(await h.get("/v1/refunds", { paymentId }))).toEqual({ data: [refund], nextCursor: null });
      expect(await eventsOf(h, "refund.succeeded")).toEqual([refund]);
      const again = await h.call(refundsPath(paymentId), {});
      expect(again.status).toBe(422);
      expect(json(again).code).toBe("refund_exceeds_payment");
    });

    it("refunds in parts up to the amount, refusing more and another currency", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      const first = json(
        await h.call(refundsPath(paymentId), { amount: rub("50000"), reason: "one item back" }),
      );
      expect(first).toMatchObject({ status: "succeeded", amount: rub("50000"), reason: "one item back" });
      const over = await h.call(refundsPath(paymentId), { amount: rub("99901") });
      expect(over.status).toBe(422);
      expect(json(over)).toMatchObject({
        code: "refund_exceeds_payment",
        detail: expect.stringContaining("99900"),
      });
      const dollars = await h.call(refundsPath(paymentId), { amount: { amount: "100", currency: "USD" } });
      expect(json(dollars).code).toBe("refund_exceeds_payment");
      const rest = json(await h.call(refundsPath(paymentId), { amount: rub("99900") }));
      expect(rest.status).toBe("succeeded");
      expect(await refundedOf(h, paymentId)).toBe("149900");
      const listed = json(await h.get("/v1/refunds", { paymentId, limit: "1" }));
      expect((listed.data as { id: string }[]).map((r) => r.id)).toEqual([rest.id]);
      expect(listed.nextCursor).toEqual(expect.any(String));
      expect(h.refundCalls()).toBe(2);
    });

    it("refuses a refund of a payment that did not succeed, and of an unknown one", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const { payment } = await payThroughProvider(h, invoiceId, "card", "decline");
      const refused = await h.call(refundsPath(payment.id), {});
      expect(refused.status).toBe(409);
      expect(json(refused).code).toBe("invalid_state");
      expect((await h.call(refundsPath(crypto.randomUUID()), {})).status).toBe(404);
      const invalid = await h.call(refundsPath(payment.id), {
        amount: rub("0"),
        reason: "x".repeat(501),
        extra: 1,
      });
      expect(invalid.status).toBe(422);
      expect((json(invalid).errors as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
        "#/amount/amount",
        "#/extra",
        "#/reason",
      ]);
      expect(h.refundCalls()).toBe(0);
      expect(json(await h.get("/v1/refunds")).data).toEqual([]);
    });

    it("replays a refund for the same Idempotency-Key without refunding again", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      const body = { amount: rub("1000") };
      const first = await h.call(refundsPath(paymentId), body, "refund-key-1");
      const replay = await h.call(refundsPath(paymentId), body, "refund-key-1");
      expect(replay.status).toBe(200);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect(replay.body).toBe(first.body);
      expect((await h.call(refundsPath(paymentId), { amount: rub("2000") }, "refund-key-1")).status).toBe(
        422,
      );
      expect(h.refundCalls()).toBe(1);
      expect(await refundedOf(h, paymentId)).toBe("1000");
    });

    it("keeps a refund with no answer pending, holding its amount, until reconciliation settles it", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.injectRefundFaults("refund-then-outage", "outage");
      const unknown = json(await h.call(refundsPath(paymentId), { amount: rub("100000") }));
      const unsent = json(await h.call(refundsPath(paymentId), { amount: rub("40000") }));
      expect([unknown.status, unknown.succeededAt, unsent.status]).toEqual(["pending", null, "pending"]);
      expect(await refundedOf(h, paymentId)).toBe("0");
      // Both hold their amounts: only 9900 remains.
      const over = await h.call(refundsPath(paymentId), { amount: rub("9901") });
      expect(json(over).code).toBe("refund_exceeds_payment");
      h.clock.advance(MINUTE_MS + 1);
      expect(await reconcilerOf(h).runOnce()).toEqual({ claimed: 2, settled: 2 });
      for (const id of [unknown.id, unsent.id])
        expect(json(await h.get(`/v1/refunds/${id as string}`)).status).toBe("succeeded");
      expect(await refundedOf(h, paymentId)).toBe("140000");
      expect(await eventsOf(h, "refund.succeeded")).toHaveLength(2);
      expect(await reconcilerOf(h).runOnce()).toEqual({ claimed: 0, settled: 0 });
    });

    it("tells the provider which ask may repeat an earlier one: not the first after storing the refund, every reconciliation's", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.injectRefundFaults("refund-then-outage");
      const refund = json(await h.call(refundsPath(paymentId), { amount: rub("50000") }));
      expect(refund.status).toBe("pending");
      h.clock.advance(MINUTE_MS + 1);
      expect(await reconcilerOf(h).runOnce()).toEqual({ claimed: 1, settled: 1 });
      // A provider whose repeat refunds again (T-Bank SBP) must know the second ask may be one.
      expect(h.refundRequests().map((ask) => [ask.refundId, ask.mayHaveBeenSent])).toEqual([
        [refund.id, false],
        [refund.id, true],
      ]);
      expect(await refundedOf(h, paymentId)).toBe("50000");
    });

    it("settles a refund the provider answers pending on its later word", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.injectRefundFaults("pending");
      const refund = json(await h.call(refundsPath(paymentId), {}));
      expect(refund.status).toBe("pending");
      h.clock.advance(MINUTE_MS + 1);
      await reconcilerOf(h).runOnce();
      expect(json(await h.get(`/v1/refunds/${refund.id as string}`)).status).toBe("succeeded");
      expect(await refundedOf(h, paymentId)).toBe("149900");
    });

    it("cancels a refund the provider refuses, freeing its amount", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      h.injectRefundFaults("refuse");
      const refused = await h.call(refundsPath(paymentId), { amount: rub("149900") });
      expect(refused.status).toBe(201);
      expect(json(refused)).toMatchObject({ status: "canceled", succeededAt: null });
      expect(await eventsOf(h, "refund.canceled")).toEqual([json(refused)]);
      expect(await refundedOf(h, paymentId)).toBe("0");
      expect(json(await h.call(refundsPath(paymentId), {})).status).toBe("succeeded");
      expect(json(await h.get("/v1/refunds", { status: "canceled" })).data).toEqual([json(refused)]);
    });

    it("follows the provider's own word: a refused refund is canceled, a pending one settled later", async () => {
      const h = await createHarness(options);
      const refusing = await paidPayment(h, REFUND_FAIL_REF);
      expect(json(await h.call(refundsPath(refusing), {})).status).toBe("canceled");
      expect(await refundedOf(h, refusing)).toBe("0");
      const slow = await paidPayment(h, REFUND_PENDING_REF);
      const pending = json(await h.call(refundsPath(slow), { amount: rub("100") }));
      expect(pending.status).toBe("pending");
      h.clock.advance(MINUTE_MS + 1);
      expect(await reconcilerOf(h).runOnce()).toEqual({ claimed: 1, settled: 1 });
      expect(json(await h.get(`/v1/refunds/${pending.id as string}`)).status).toBe("succeeded");
      expect(await refundedOf(h, slow)).toBe("100");
    });

    it("never lets 50 concurrent partial refunds of one payment sum past it", async () => {
      const h = await createHarness(options);
      const paymentId = await paidPayment(h);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => h.call(refundsPath(paymentId), { amount: rub("5000") })),
      );
      const statuses = answers.map((a) => a.status);
      // 149900 holds 29 refunds of 5000; every other one is refused.
      expect(statuses.filter((s) => s === 201)).toHaveLength(29);
      expect(statuses.filter((s) => s === 422)).toHaveLength(21);
      expect(await refundedOf(h, paymentId)).toBe("145000");
      const listed = json(await h.get("/v1/refunds", { paymentId, limit: "100" })).data as {
        amount: { amount: string };
      }[];
      expect(listed.reduce((sum, r) => sum + BigInt(r.amount.amount), 0n)).toBe(145000n);
    });
  });

  describe("an invoice paid twice", () => {
    it("stores the second success's refund, retried by reconciliation when the provider did not answer", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const card = (await h.kopek.startPayment({ invoiceId: id, method: "card" }))._unsafeUnwrap();
      const sbp = (await h.kopek.startPayment({ invoiceId: id, method: "sbp" }))._unsafeUnwrap();
      if (card.kind !== "confirm" || sbp.kind !== "confirm") throw new Error("not payable");
      h.provider.confirm(card.payment.providerPaymentId as string, "succeed");
      h.provider.confirm(sbp.payment.providerPaymentId as string, "succeed");
      await h.kopek.checkPayment({ invoiceId: id, paymentId: card.payment.id });
      h.injectRefundFaults("outage");
      const second = (
        await h.kopek.checkPayment({ invoiceId: id, paymentId: sbp.payment.id })
      )._unsafeUnwrap();
      expect(second.payment).toMatchObject({ status: "succeeded", amountRefunded: "0" });
      const [refund] = json(await h.get("/v1/refunds", { paymentId: sbp.payment.id })).data as Record<
        string,
        unknown
      >[];
      expect(refund).toMatchObject({ status: "pending", amount: rub("149900"), reason: expect.any(String) });
      h.clock.advance(MINUTE_MS + 1);
      await reconcilerOf(h).runOnce();
      expect(json(await h.get(`/v1/refunds/${refund?.id as string}`)).status).toBe("succeeded");
      expect(await refundedOf(h, sbp.payment.id)).toBe("149900");
      expect(await refundedOf(h, card.payment.id)).toBe("0");
      expect(await eventsOf(h, "refund.succeeded")).toHaveLength(1);
      expect(await eventsOf(h, "invoice.paid")).toHaveLength(1);
    });
  });
}
