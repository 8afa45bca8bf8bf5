import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  payThroughProvider,
  subscriptionBody,
} from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** API.md 10.2: every attempt to move money is a Payment, read through `GET /v1/payments`. */
export function registerPaymentTests(options: KopekContractOptions): void {
  describe("payments", () => {
    it("records an invoice's declined and succeeded payments, readable by id and by invoice", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      expect(json(await h.get("/v1/payments", { invoiceId })).data).toEqual([]);

      await payThroughProvider(h, invoiceId, "sbp", "decline");
      h.clock.advance(1000);
      const { payment } = await payThroughProvider(h, invoiceId, "card");
      // Choosing again once it is paid starts nothing.
      expect((await h.kopek.startPayment({ invoiceId, method: "card" }))._unsafeUnwrap().kind).toBe("closed");

      const listed = json(await h.get("/v1/payments", { invoiceId }));
      const [paid, declined] = listed.data as Record<string, unknown>[];
      expect(listed.nextCursor).toBeNull();
      expect((listed.data as unknown[]).length).toBe(2);
      expect(paid).toEqual({
        id: expect.any(String),
        status: "succeeded",
        amount: { amount: "149900", currency: "RUB" },
        amountRefunded: { amount: "0", currency: "RUB" },
        method: "card",
        methodMask: null,
        invoiceId,
        subscriptionId: null,
        cycle: null,
        kind: "invoice",
        provider: "sandbox",
        providerPaymentId: payment.providerPaymentId,
        failureCode: null,
        createdAt: "2026-01-31T10:00:01.000Z",
        succeededAt: "2026-01-31T10:00:01.000Z",
        canceledAt: null,
        customerId: null,
      });
      expect(declined).toMatchObject({
        status: "canceled",
        method: "sbp",
        failureCode: "payment_declined",
        succeededAt: null,
        canceledAt: "2026-01-31T10:00:00.000Z",
      });
      const one = await h.get(`/v1/payments/${paid?.id as string}`);
      expect(one.status).toBe(200);
      expect(json(one)).toEqual(paid);
      expect(json(await h.get("/v1/payments", { status: "canceled" })).data).toEqual([declined]);
      expect(json(await h.get(`/v1/invoices/${invoiceId}`)).status).toBe("paid");
    });

    it("records a subscription's first charge and every renewal the provider answered", async () => {
      const h = await createHarness(options);
      const created = json(await h.call("/v1/subscriptions", subscriptionBody()));
      const subscriptionId = created.id as string;
      const worker = h.worker();
      h.clock.advance(28 * DAY_MS);
      h.injectChargeFaults("outage");
      await worker.runOnce();
      h.clock.advance(DAY_MS);
      h.injectChargeFaults("decline");
      await worker.runOnce();
      h.clock.advance(3 * DAY_MS);
      expect(await worker.runOnce()).toMatchObject({ charged: 1 });

      const data = json(await h.get("/v1/payments", { subscriptionId })).data as Record<string, unknown>[];
      // The outage answered nothing, so it is no payment: a decline and a success of cycle 2, and cycle 1.
      expect(data.map((p) => [p.cycle, p.status, p.failureCode])).toEqual([
        [2, "succeeded", null],
        [2, "canceled", "payment_declined"],
        [1, "succeeded", null],
      ]);
      for (const payment of data) {
        expect(payment).toMatchObject({
          amount: created.amount,
          method: created.method,
          methodMask: created.methodMask,
          invoiceId: null,
          subscriptionId,
          provider: "sandbox",
        });
      }
      expect(data[0]?.providerPaymentId).toEqual(expect.any(String));
      expect(data[2]?.providerPaymentId).toEqual(expect.any(String));
      expect(data[0]?.providerPaymentId).not.toBe(data[2]?.providerPaymentId);
    });

    it("pages payments newest first and refuses unknown or malformed filters", async () => {
      const h = await createHarness(options);
      for (let i = 0; i < 3; i++) await h.call("/v1/subscriptions", subscriptionBody());
      const first = json(await h.get("/v1/payments", { limit: "2" }));
      expect((first.data as unknown[]).length).toBe(2);
      const rest = json(await h.get("/v1/payments", { limit: "2", cursor: first.nextCursor as string }));
      expect((rest.data as unknown[]).length).toBe(1);
      expect(rest.nextCursor).toBeNull();

      const bad = await h.get("/v1/payments", { invoiceId: "nope", status: "paid", method: "card" });
      expect(bad.status).toBe(422);
      const pointers = (json(bad).errors as { pointer: string }[]).map((e) => e.pointer).sort();
      expect(pointers).toEqual(["#/invoiceId", "#/method", "#/status"]);
    });

    it("answers another project's payment, or an unknown one, 404", async () => {
      const h = await createHarness(options);
      const other = await createHarness({ ...options, createStorage: async () => h.storage });
      const subscriptionId = json(await other.call("/v1/subscriptions", subscriptionBody())).id as string;
      const theirs = json(await other.get("/v1/payments", { subscriptionId })).data as { id: string }[];
      expect(theirs.length).toBe(1);
      expect((await h.get(`/v1/payments/${theirs[0]?.id as string}`)).status).toBe(404);
      expect((await h.get(`/v1/payments/${randomUUID()}`)).status).toBe(404);
      expect(json(await h.get("/v1/payments", { subscriptionId })).data).toEqual([]);
    });
  });
}
