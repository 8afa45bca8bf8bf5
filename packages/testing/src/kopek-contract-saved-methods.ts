import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  payThroughProvider,
} from "./kopek-harness.js";

const period = { unit: "month", count: 1 };

async function paidSavedInvoice(h: KopekHarness, body: Record<string, unknown> = {}): Promise<string> {
  const created = await h.call("/v1/invoices", { ...invoiceBody(), savePaymentMethod: true, ...body });
  expect(created.status).toBe(201);
  const id = json(created).id as string;
  await payThroughProvider(h, id, "card");
  return id;
}

const fromInvoice = (invoiceId: string, amount = "149900") => ({
  amount: { amount, currency: "RUB" },
  period,
  invoiceId,
});

/** API.md 10.5: saved methods at checkout, and a subscription whose first cycle is a paid invoice. */
export function registerSavedMethodTests(options: KopekContractOptions): void {
  describe("saved methods and subscriptions from a paid invoice", () => {
    it("saves the payer's method, and makes a subscription from the invoice without a second charge", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = await paidSavedInvoice(h);
      const invoice = json(await h.get(`/v1/invoices/${invoiceId}`));
      expect(invoice.savedMethod).toEqual({ method: "card", methodMask: expect.any(String) });
      expect(JSON.stringify(invoice)).not.toContain("sandbox_saved_");

      const created = await h.call("/v1/subscriptions", fromInvoice(invoiceId));
      expect(created.status).toBe(201);
      const subscription = json(created);
      expect(subscription).toMatchObject({
        status: "active",
        method: "card",
        methodMask: (invoice.savedMethod as { methodMask: string }).methodMask,
        startedAt: invoice.paidAt,
        lastChargedAt: invoice.paidAt,
        cyclesStarted: 1,
      });
      expect(h.chargeCalls()).toBe(0);
      // The next charge is one period after the payment, and charges the saved method.
      h.clock.advance(Date.parse(subscription.nextChargeAt as string) - h.clock.now().getTime());
      expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
      expect(json(await h.get(`/v1/subscriptions/${subscription.id}`))).toMatchObject({ cyclesStarted: 2 });
      expect(h.chargeCalls()).toBe(1);
    });

    it("answers the same subscription to the same key, and 409 invoice_already_used to another", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = await paidSavedInvoice(h);
      const first = await h.call("/v1/subscriptions", fromInvoice(invoiceId), "key-1");
      const replay = await h.call("/v1/subscriptions", fromInvoice(invoiceId), "key-1");
      expect(replay.status).toBe(200);
      expect(replay.body).toBe(first.body);
      const second = await h.call("/v1/subscriptions", fromInvoice(invoiceId), "key-2");
      expect(second.status).toBe(409);
      expect(json(second).code).toBe("invoice_already_used");
    });

    it("makes exactly one subscription when 10 creates race for one invoice", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = await paidSavedInvoice(h);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          h.call("/v1/subscriptions", fromInvoice(invoiceId), `race-${i}`),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409).map((a) => json(a).code)).toEqual(
        Array(9).fill("invoice_already_used"),
      );
      expect(json(await h.get("/v1/subscriptions")).data).toHaveLength(1);
    });

    it("refuses an invoice it cannot use with 422 invoice_not_usable saying why", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const refusal = async (body: unknown, why: RegExp) => {
        const answer = await h.call("/v1/subscriptions", body);
        expect(answer.status).toBe(422);
        expect(json(answer)).toMatchObject({
          code: "invoice_not_usable",
          detail: expect.stringMatching(why),
        });
      };
      await refusal(fromInvoice("0192f3c4-0000-7000-8000-000000000000"), /no invoice/);
      const unpaid = json(await h.call("/v1/invoices", { ...invoiceBody(), savePaymentMethod: true }))
        .id as string;
      await refusal(fromInvoice(unpaid), /not paid/);
      const unsaved = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      await payThroughProvider(h, unsaved, "card");
      await refusal(fromInvoice(unsaved), /no saved method/);
      const saved = await paidSavedInvoice(h);
      await refusal(fromInvoice(saved, "100"), /amount/);
      expect(h.chargeCalls()).toBe(0);
      expect(json(await h.get("/v1/subscriptions")).data).toHaveLength(0);
    });

    it("refuses an invoice whose payment was refunded in full; one refunded in part still backs one", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const refund = async (invoiceId: string, amount: string) => {
        const [payment] = json(await h.get("/v1/payments", { invoiceId })).data as { id: string }[];
        const refunded = await h.call(`/v1/payments/${payment?.id}/refunds`, {
          amount: { amount, currency: "RUB" },
        });
        expect(json(refunded).status).toBe("succeeded");
      };
      const inPart = await paidSavedInvoice(h);
      await refund(inPart, "49900");
      expect((await h.call("/v1/subscriptions", fromInvoice(inPart))).status).toBe(201);
      const inFull = await paidSavedInvoice(h);
      await refund(inFull, "49900");
      await refund(inFull, "100000"); // the rest: refunds add up
      const answer = await h.call("/v1/subscriptions", fromInvoice(inFull));
      expect(answer.status).toBe(422);
      expect(json(answer)).toMatchObject({
        code: "invoice_not_usable",
        detail: expect.stringMatching(/refunded/),
      });
      expect(json(await h.get("/v1/subscriptions")).data).toHaveLength(1);
      expect(h.chargeCalls()).toBe(0);
    });

    it("takes exactly one of invoiceId and method + providerMethodRef", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const both = await h.call("/v1/subscriptions", {
        ...fromInvoice("0192f3c4-0000-7000-8000-000000000000"),
        method: "card",
        providerMethodRef: "pm_x",
      });
      expect(json(both).errors).toEqual([
        expect.objectContaining({ pointer: "#/method", code: "mutually_exclusive" }),
        expect.objectContaining({ pointer: "#/providerMethodRef", code: "mutually_exclusive" }),
      ]);
      const neither = await h.call("/v1/subscriptions", {
        amount: { amount: "100", currency: "RUB" },
        period,
      });
      expect(json(neither).errors).toEqual([
        expect.objectContaining({ pointer: "#/method", code: "required" }),
        expect.objectContaining({ pointer: "#/providerMethodRef", code: "required" }),
      ]);
    });

    // A saved method must be one the project can charge later: what the provider saves, within what
    // the project may charge stored (`storedMethods`, API.md 10.8); else its subscription is refused.
    it.each([
      { case: "the provider cannot save sbp", saveMethod: ["card"], storedMethodCharge: ["card", "sbp"] },
      {
        case: "the project charges only stored cards",
        saveMethod: ["card", "sbp"],
        storedMethodCharge: ["card"],
      },
    ] as const)(
      "offers only methods it can charge later, and refuses a pinned other one, when $case",
      async (capabilities) => {
        const h = await createHarness(options, { paymentPage: "kopek" });
        const { saveMethod, storedMethodCharge } = capabilities;
        Object.assign(h.provider, {
          capabilities: { ...h.provider.capabilities, saveMethod, storedMethodCharge },
        });
        const pinned = await h.call("/v1/invoices", {
          ...invoiceBody(),
          method: "sbp",
          savePaymentMethod: true,
        });
        expect(pinned.status).toBe(422);
        expect(json(pinned).code).toBe("method_unavailable");
        const methodsOf = async (id: unknown) =>
          (await h.kopek.paymentPage(id as string))._unsafeUnwrap().methods;
        const open = json(await h.call("/v1/invoices", { ...invoiceBody(), savePaymentMethod: true }));
        expect(await methodsOf(open.id)).toEqual(["card"]);
        const refused = await h.kopek.startPayment({ invoiceId: open.id as string, method: "sbp" });
        expect(refused._unsafeUnwrapErr().code).toBe("method_unavailable");
        // Not saving: every method stays payable.
        expect(await methodsOf(json(await h.call("/v1/invoices", invoiceBody())).id)).toEqual([
          "card",
          "sbp",
        ]);
      },
    );
  });
}
