import { describe, expect, it } from "vitest";
import { reconcilerOf } from "./harness-reads.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
} from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

async function invoice(h: KopekHarness, body: Record<string, unknown> = {}): Promise<string> {
  return json(await h.call("/v1/invoices", { ...invoiceBody(), ...body })).id as string;
}

async function start(h: KopekHarness, invoiceId: string, method = "card") {
  const started = (await h.kopek.startPayment({ invoiceId, method }))._unsafeUnwrap();
  if (started.kind !== "confirm") throw new Error(`not payable: ${started.kind}`);
  return started;
}

const payments = async (h: KopekHarness, invoiceId: string) =>
  json(await h.get("/v1/payments", { invoiceId })).data as Record<string, unknown>[];

/**
 * API.md 10.1 and 10.3: an invoice is paid only on the provider's word. The payer is sent to the
 * provider with a pending Payment; coming back, Kopek asks the provider and settles on its answer.
 */
export function registerCheckoutTests(options: KopekContractOptions): void {
  describe("paying an invoice through the provider", () => {
    it("sends the payer to the provider with a pending payment, and settles only on the provider's word", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = await invoice(h);
      const started = await start(h, id);
      expect(started.url).not.toBe("");
      expect(started.payment).toMatchObject({ status: "pending", invoiceId: id, method: "card" });
      const providerPaymentId = started.payment.providerPaymentId as string;
      expect(providerPaymentId).toEqual(expect.any(String));

      // Back before confirming: the provider says pending, so nothing is settled.
      const early = (
        await h.kopek.checkPayment({ invoiceId: id, paymentId: started.payment.id })
      )._unsafeUnwrap();
      expect(early.payment.status).toBe("pending");
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("created");

      h.provider.confirm(providerPaymentId, "succeed");
      const checked = (
        await h.kopek.checkPayment({ invoiceId: id, paymentId: started.payment.id })
      )._unsafeUnwrap();
      expect(checked.payment).toMatchObject({ status: "succeeded", providerPaymentId });
      expect(checked.invoice).toMatchObject({ status: "paid", method: "card" });
      const [listed] = await payments(h, id);
      expect(listed).toMatchObject({ status: "succeeded", succeededAt: expect.any(String) });
      expect(json(await h.get(`/v1/invoices/${id}`))).toMatchObject({
        status: "paid",
        paidAt: listed?.succeededAt,
      });
      // A repeated check changes nothing: still one payment, the invoice paid once.
      await h.kopek.checkPayment({ invoiceId: id, paymentId: started.payment.id });
      expect(await payments(h, id)).toHaveLength(1);
      const paidEvents = (await h.storage.inspect()).events?.filter((e) => e.type === "invoice.paid") ?? [];
      expect(paidEvents.filter((e) => JSON.stringify(e).includes(id))).toHaveLength(1);
    });

    it("reuses a pending attempt, and makes a new one after a decline", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = await invoice(h);
      const first = await start(h, id, "sbp");
      const again = await start(h, id, "sbp");
      expect(again.payment.id).toBe(first.payment.id);
      expect(again.payment.providerPaymentId).toBe(first.payment.providerPaymentId);

      h.provider.confirm(first.payment.providerPaymentId as string, "decline");
      const declined = (
        await h.kopek.checkPayment({ invoiceId: id, paymentId: first.payment.id })
      )._unsafeUnwrap();
      expect(declined.payment).toMatchObject({ status: "canceled", failureCode: "payment_declined" });
      expect(declined.invoice.status).toBe("created");

      const retry = await start(h, id, "sbp");
      expect(retry.payment.id).not.toBe(first.payment.id);
      expect(retry.payment.providerPaymentId).not.toBe(first.payment.providerPaymentId);
      h.provider.confirm(retry.payment.providerPaymentId as string, "succeed");
      await h.kopek.checkPayment({ invoiceId: id, paymentId: retry.payment.id });
      expect((await payments(h, id)).map((p) => p.status)).toEqual(["succeeded", "canceled"]);
    });

    it("settles an attempt decided at the provider when the payer, who never came back, chooses again", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = await invoice(h);
      const declined = await start(h, id, "sbp");
      h.provider.confirm(declined.payment.providerPaymentId as string, "decline");
      const retry = await start(h, id, "sbp");
      expect(retry.payment.id).not.toBe(declined.payment.id);
      expect(retry.payment.status).toBe("pending");
      h.provider.confirm(retry.payment.providerPaymentId as string, "succeed");
      const again = (await h.kopek.startPayment({ invoiceId: id, method: "sbp" }))._unsafeUnwrap();
      expect(again.kind).toBe("closed");
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("paid");
      expect((await payments(h, id)).map((p) => p.status)).toEqual(["succeeded", "canceled"]);
    });

    it("makes one attempt when two tabs choose at once", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = await invoice(h);
      const both = await Promise.all([start(h, id), start(h, id), start(h, id)]);
      expect(new Set(both.map((s) => s.payment.id)).size).toBe(1);
      expect(await payments(h, id)).toHaveLength(1);
    });

    it("refuses attempts on a closed invoice and a method it does not allow", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const pinned = await invoice(h, { method: "card" });
      const refused = await h.kopek.startPayment({ invoiceId: pinned, method: "sbp" });
      expect(refused._unsafeUnwrapErr().code).toBe("method_unavailable");

      const expiring = await invoice(h);
      h.clock.advance(2 * DAY_MS);
      expect((await h.kopek.startPayment({ invoiceId: expiring, method: "card" }))._unsafeUnwrap().kind).toBe(
        "closed",
      );
      expect(
        (await h.kopek.startPayment({ invoiceId: crypto.randomUUID(), method: "card" }))._unsafeUnwrapErr()
          .code,
      ).toBe("not_found");
      expect(await payments(h, expiring)).toEqual([]);
    });

    it("settles a payment whose payer never came back, a minute later, on the provider's word", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = await invoice(h);
      const started = await start(h, id);
      h.provider.confirm(started.payment.providerPaymentId as string, "succeed");
      const job = reconcilerOf(h);
      expect(await job.runOnce()).toEqual({ claimed: 0, settled: 0 });
      h.clock.advance(61_000);
      expect(await job.runOnce()).toEqual({ claimed: 1, settled: 1 });
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("paid");
      expect((await payments(h, id))[0]).toMatchObject({ status: "succeeded" });
      h.clock.advance(3_600_000);
      expect(await job.runOnce()).toEqual({ claimed: 0, settled: 0 });
      const paidEvents = (await h.storage.inspect()).events?.filter((e) => e.type === "invoice.paid") ?? [];
      expect(paidEvents.filter((e) => JSON.stringify(e).includes(id))).toHaveLength(1);
    });

    it("asks again with back-off while the provider says pending, and settles a decline", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const id = await invoice(h);
      const started = await start(h, id, "sbp");
      const job = reconcilerOf(h);
      h.clock.advance(61_000);
      expect(await job.runOnce()).toEqual({ claimed: 1, settled: 0 });
      expect(await job.runOnce()).toEqual({ claimed: 0, settled: 0 });
      h.clock.advance(61_000);
      expect(await job.runOnce()).toEqual({ claimed: 1, settled: 0 });
      h.provider.confirm(started.payment.providerPaymentId as string, "decline");
      h.clock.advance(61_000);
      expect(await job.runOnce()).toEqual({ claimed: 1, settled: 1 });
      expect((await payments(h, id))[0]).toMatchObject({
        status: "canceled",
        failureCode: "payment_declined",
      });
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("created");
    });

    it("checks a payment once when several reconcilers run at once", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const ids = await Promise.all([invoice(h), invoice(h), invoice(h)]);
      for (const id of ids) await start(h, id);
      h.clock.advance(61_000);
      const runs = await Promise.all([
        reconcilerOf(h).runOnce(),
        reconcilerOf(h).runOnce(),
        reconcilerOf(h).runOnce(),
      ]);
      expect(runs.reduce((sum, run) => sum + run.claimed, 0)).toBe(3);
    });

    it("answers a check of another invoice's payment not_found", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const a = await invoice(h);
      const b = await invoice(h);
      const started = await start(h, a);
      const crossed = await h.kopek.checkPayment({ invoiceId: b, paymentId: started.payment.id });
      expect(crossed._unsafeUnwrapErr().code).toBe("not_found");
    });
  });
}
