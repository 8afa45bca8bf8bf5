import { MAX_INVOICE_ATTEMPTS, type PaymentProvider } from "@kopek/core";
import { errAsync } from "neverthrow";
import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
} from "./kopek-harness.js";

/** Records every provider key Kopek sends with `createPayment`, in order. */
function recordKeys(h: KopekHarness): string[] {
  const keys: string[] = [];
  const provider = h.provider as { createPayment: PaymentProvider["createPayment"] };
  const real = provider.createPayment.bind(h.provider);
  provider.createPayment = (request) => {
    keys.push(request.idempotencyKey);
    return real(request);
  };
  return keys;
}

/** A payer choosing `method` and declining at the provider, `times` times. */
async function decline(h: KopekHarness, invoiceId: string, times: number, method = "card") {
  for (let i = 0; i < times; i++) {
    const started = (await h.kopek.startPayment({ invoiceId, method }))._unsafeUnwrap();
    if (started.kind !== "confirm") throw new Error(`attempt ${i + 1} refused: ${started.kind}`);
    h.provider.confirm(started.payment.providerPaymentId ?? "", "decline");
    (await h.kopek.checkPayment({ invoiceId, paymentId: started.payment.id }))._unsafeUnwrap();
  }
}

/** Issue 38 part 4: an invoice takes at most MAX_INVOICE_ATTEMPTS attempts; provider keys never repeat. */
export function registerInvoiceAttemptTests(options: KopekContractOptions): void {
  describe("attempts per invoice", () => {
    it(`refuses attempt ${MAX_INVOICE_ATTEMPTS + 1} without asking the provider, every key distinct`, async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const keys = recordKeys(h);
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      await decline(h, id, MAX_INVOICE_ATTEMPTS / 2, "card");
      await decline(h, id, MAX_INVOICE_ATTEMPTS / 2, "sbp");
      expect(keys).toHaveLength(MAX_INVOICE_ATTEMPTS);
      expect(new Set(keys).size).toBe(MAX_INVOICE_ATTEMPTS);

      for (const method of ["card", "sbp"]) {
        const refused = (await h.kopek.startPayment({ invoiceId: id, method }))._unsafeUnwrap();
        expect(refused.kind).toBe("attempts_exhausted");
      }
      expect(keys).toHaveLength(MAX_INVOICE_ATTEMPTS);
      const listed = json(await h.get("/v1/payments", { invoiceId: id, limit: "100" })).data as unknown[];
      expect(listed).toHaveLength(MAX_INVOICE_ATTEMPTS);
      expect(json(await h.get(`/v1/invoices/${id}`))).toMatchObject({
        status: "created",
        attempts: MAX_INVOICE_ATTEMPTS,
        maxAttempts: MAX_INVOICE_ATTEMPTS,
      });
      expect((await h.kopek.paymentPage(id))._unsafeUnwrap().state).toBe("attempts_exhausted");
      const canceled = (await h.storage.inspect()).events?.filter((e) => e.type === "payment.canceled") ?? [];
      expect(canceled).toHaveLength(MAX_INVOICE_ATTEMPTS);
    });

    it("makes at most one last attempt when two tabs choose at once", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const keys = recordKeys(h);
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      await decline(h, id, MAX_INVOICE_ATTEMPTS - 1);
      const both = await Promise.all([
        h.kopek.startPayment({ invoiceId: id, method: "card" }),
        h.kopek.startPayment({ invoiceId: id, method: "sbp" }),
      ]);
      const kinds = both.map((r) => r._unsafeUnwrap().kind).sort();
      expect(kinds).toEqual(["attempts_exhausted", "confirm"]);
      const listed = json(await h.get("/v1/payments", { invoiceId: id, limit: "100" })).data as unknown[];
      expect(listed).toHaveLength(MAX_INVOICE_ATTEMPTS);
      expect(new Set(keys).size).toBe(MAX_INVOICE_ATTEMPTS);
      // The last attempt, still pending, is reused when chosen again: it is no new attempt.
      const pending = both.map((r) => r._unsafeUnwrap()).find((s) => s.kind === "confirm");
      const again = (
        await h.kopek.startPayment({
          invoiceId: id,
          method: pending?.kind === "confirm" ? pending.payment.method : "card",
        })
      )._unsafeUnwrap();
      expect(
        again.kind === "confirm" && pending?.kind === "confirm" && again.payment.id === pending.payment.id,
      ).toBe(true);
      expect((await h.kopek.paymentPage(id))._unsafeUnwrap().state).toBe("payable");
    });

    it("ends an attempt the provider refused or declined at once, so choosing again makes a new one", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const keys = recordKeys(h);
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const real = h.provider.createPayment.bind(h.provider);
      for (const [code, failureCode] of [
        ["declined", "payment_declined"],
        ["failed", "provider_error"],
      ] as const) {
        Object.assign(h.provider, {
          createPayment: () => errAsync({ code, message: `injected: ${code}` }),
        });
        const refused = await h.kopek.startPayment({ invoiceId: id, method: "card" });
        expect(refused.isErr()).toBe(true);
        const [attempt] = json(await h.get("/v1/payments", { invoiceId: id })).data as Record<
          string,
          unknown
        >[];
        expect(attempt).toMatchObject({ status: "canceled", failureCode, providerPaymentId: null });
      }
      Object.assign(h.provider, { createPayment: real });
      const third = (await h.kopek.startPayment({ invoiceId: id, method: "card" }))._unsafeUnwrap();
      expect(third.kind).toBe("confirm");
      expect(keys).toEqual([`kopek:invoice:${id}:card:3`]);
    });
  });
}
