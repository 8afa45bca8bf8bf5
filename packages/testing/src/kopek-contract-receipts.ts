import { describe, expect, it } from "vitest";
import { receiptBody } from "./harness-requests.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  payThroughProvider,
  subscriptionBody,
} from "./kopek-harness.js";

/** The receipt as the API shows it and the provider gets it: every field present. */
const receiptView = () => ({ ...receiptBody(), customer: { email: "buyer@example.com", phone: null } });

/** API.md 10.7: the receipt validated exactly, stored with its resource, sent with every charge it covers. */
export function registerReceiptTests(options: KopekContractOptions): void {
  describe("54-FZ receipts", () => {
    it("a subscription's receipt is stored, shown, and sent with the first charge and every renewal", async () => {
      const h = await createHarness(options);
      const created = await h.call("/v1/subscriptions", { ...subscriptionBody(), receipt: receiptBody() });
      expect(created.status).toBe(201);
      const id = json(created).id as string;
      expect(json(created).receipt).toEqual(receiptView());
      expect(json(await h.get(`/v1/subscriptions/${id}`)).receipt).toEqual(receiptView());
      expect(h.provider.chargeReceipts()).toEqual([receiptView()]);
      const worker = h.worker();
      for (let cycle = 2; cycle <= 3; cycle++) {
        const before = json(await h.get(`/v1/subscriptions/${id}`));
        h.clock.advance(Date.parse(before.nextChargeAt as string) - h.clock.now().getTime());
        expect(await worker.runOnce()).toMatchObject({ charged: 1 });
      }
      expect(h.provider.chargeReceipts()).toEqual([receiptView(), receiptView(), receiptView()]);
    });

    it("an invoice's receipt is stored, shown, and sent with its payment; none is null", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const created = await h.call("/v1/invoices", { ...invoiceBody(), receipt: receiptBody() });
      expect(created.status).toBe(201);
      const id = json(created).id as string;
      expect(json(created).receipt).toEqual(receiptView());
      await payThroughProvider(h, id, "card");
      expect(h.provider.paymentReceipts()).toEqual([receiptView()]);
      const plain = json(await h.call("/v1/invoices", invoiceBody()));
      expect(plain.receipt).toBeNull();
      await payThroughProvider(h, plain.id as string, "card");
      expect(h.provider.paymentReceipts()).toEqual([receiptView(), null]);
    });

    it("a partial refund sends the part of the receipt it returns, after earlier refunds; a full refund none", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const created = await h.call("/v1/subscriptions", { ...subscriptionBody(), receipt: receiptBody() });
      const subscriptionId = json(created).id as string;
      const [charge] = json(await h.get("/v1/payments", { subscriptionId })).data as { id: string }[];
      for (const amount of ["50000", "50000", "49900"]) {
        const refunded = await h.call(`/v1/payments/${charge?.id}/refunds`, {
          amount: { amount, currency: "RUB" },
        });
        expect(json(refunded).status).toBe("succeeded");
      }
      const [seat, halfHour] = receiptView().items;
      const part = (items: unknown[]) => ({ ...receiptView(), items });
      expect(h.provider.refundReceipts()).toEqual([
        part([{ ...seat, quantity: "1" }]),
        part([{ ...seat, quantity: "1" }]),
        part([halfHour]),
      ]);
      const invoice = json(await h.call("/v1/invoices", { ...invoiceBody(), receipt: receiptBody() }));
      const invoiceId = invoice.id as string;
      await payThroughProvider(h, invoiceId, "card");
      const [paid] = json(await h.get("/v1/payments", { invoiceId })).data as { id: string }[];
      expect((await h.call(`/v1/payments/${paid?.id}/refunds`, {})).status).toBe(201);
      expect(h.provider.refundReceipts()).toHaveLength(4);
      expect(h.provider.refundReceipts()[3]).toBeNull();
    });

    it("refuses items that do not add up to the amount: receipt_total_mismatch, nothing stored or charged", async () => {
      const h = await createHarness(options);
      const receipt = receiptBody();
      const short = { ...receipt, items: receipt.items.slice(0, 1) };
      for (const [path, base] of [
        ["/v1/subscriptions", subscriptionBody()],
        ["/v1/invoices", invoiceBody()],
      ] as const) {
        const refused = await h.call(path, { ...base, receipt: short });
        expect(refused.status).toBe(422);
        expect(json(refused)).toMatchObject({
          code: "validation_failed",
          errors: [
            {
              pointer: "#/receipt/items",
              code: "receipt_total_mismatch",
              detail: "the items come to 1000.00 RUB, the amount is 1499.00 RUB; they must be equal",
            },
          ],
        });
      }
      expect(h.chargeCalls()).toBe(0);
      expect((json(await h.get("/v1/invoices")).data as unknown[]).length).toBe(0);
      expect((json(await h.get("/v1/subscriptions")).data as unknown[]).length).toBe(0);
    });

    it("refuses every malformed part of a receipt at its pointer, all at once", async () => {
      const h = await createHarness(options);
      const item = receiptBody().items[0];
      const cases: [unknown, string, string][] = [
        [{ ...receiptBody(), customer: {} }, "#/receipt/customer", "required"],
        [{ ...receiptBody(), customer: { email: "nope" } }, "#/receipt/customer/email", "invalid_format"],
        [{ ...receiptBody(), taxSystemCode: 7 }, "#/receipt/taxSystemCode", "too_large"],
        [{ ...receiptBody(), items: [] }, "#/receipt/items", "too_small"],
        [{ ...receiptBody(), items: Array(101).fill(item) }, "#/receipt/items", "too_large"],
        [{ ...receiptBody(), extra: 1 }, "#/receipt/extra", "unknown_field"],
        [
          { ...receiptBody(), items: [{ ...item, quantity: "1.2345" }] },
          "#/receipt/items/0/quantity",
          "invalid_format",
        ],
        [
          { ...receiptBody(), items: [{ ...item, quantity: "0.000" }] },
          "#/receipt/items/0/quantity",
          "too_small",
        ],
        [
          { ...receiptBody(), items: [{ ...item, quantity: 2 }] },
          "#/receipt/items/0/quantity",
          "invalid_type",
        ],
        [{ ...receiptBody(), items: [{ ...item, vatCode: 13 }] }, "#/receipt/items/0/vatCode", "too_large"],
        [
          { ...receiptBody(), items: [{ ...item, description: "" }] },
          "#/receipt/items/0/description",
          "too_small",
        ],
        [
          { ...receiptBody(), items: [{ ...item, description: "x".repeat(129) }] },
          "#/receipt/items/0/description",
          "too_long",
        ],
        [
          { ...receiptBody(), items: [{ ...item, paymentSubject: "goods" }] },
          "#/receipt/items/0/paymentSubject",
          "invalid_value",
        ],
        [
          { ...receiptBody(), items: [{ ...item, paymentMode: "prepayment" }] },
          "#/receipt/items/0/paymentMode",
          "invalid_value",
        ],
        // Priced in another currency than the amount.
        [
          {
            ...receiptBody(),
            items: [{ ...item, quantity: "1", amount: { amount: "149900", currency: "USD" } }],
          },
          "#/receipt/items/0/amount/currency",
          "invalid_value",
        ],
        // 0.333 × 1.00 RUB is 33.3 kopecks: no whole amount, refused rather than rounded.
        [
          {
            ...receiptBody(),
            items: [{ ...item, quantity: "0.333", amount: { amount: "100", currency: "RUB" } }],
          },
          "#/receipt/items/0",
          "invalid_value",
        ],
      ];
      for (const [receipt, pointer, code] of cases) {
        const refused = await h.call("/v1/invoices", { ...invoiceBody(), receipt });
        expect([refused.status, json(refused).code]).toEqual([422, "validation_failed"]);
        expect(json(refused).errors).toContainEqual(
          expect.objectContaining({ pointer, code, detail: expect.any(String) }),
        );
      }
      const fractional = await h.call("/v1/invoices", { ...invoiceBody(), receipt: cases[15]?.[0] });
      expect(JSON.stringify(json(fractional).errors)).toContain("33.3 minor units of RUB");
      expect(h.chargeCalls()).toBe(0);
    });

    it("a provider that cannot take receipts: 422 method_unavailable at creation, nothing charged", async () => {
      const h = await createHarness(options, { receipts: false });
      for (const [path, base] of [
        ["/v1/subscriptions", subscriptionBody()],
        ["/v1/invoices", invoiceBody()],
      ] as const) {
        const refused = await h.call(path, { ...base, receipt: receiptBody() });
        expect([refused.status, json(refused).code]).toEqual([422, "method_unavailable"]);
        expect(json(refused).detail).toMatch(/receipts/);
        expect((await h.call(path, base)).status).toBe(201);
      }
      expect(h.chargeCalls()).toBe(1);
    });

    it("the receipt is part of the request's fingerprint: another receipt under one key is refused", async () => {
      const h = await createHarness(options);
      const key = crypto.randomUUID();
      expect((await h.call("/v1/invoices", { ...invoiceBody(), receipt: receiptBody() }, key)).status).toBe(
        201,
      );
      const other = { ...receiptBody(), customer: { email: "other@example.com" } };
      const reused = await h.call("/v1/invoices", { ...invoiceBody(), receipt: other }, key);
      expect([reused.status, json(reused).code]).toEqual([422, "idempotency_key_reused"]);
    });
  });
}
