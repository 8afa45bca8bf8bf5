import { randomUUID } from "node:crypto";
import { EMULATOR_SUCCESS_CARD } from "@kopek/provider-yookassa/emulator";
import { afterAll, describe, expect, it } from "vitest";
import { openServerTestDatabase } from "./postgres-database.js";
import { emulatorPaymentIdOf, type Json, startYooKassaServer, until } from "./yookassa-fixture.js";

// Refunds (API.md 10.6) through the reference server and @kopek/provider-yookassa, against the
// YooKassa emulator over real HTTP: a paid invoice refunded in part and then in full.

const pg = await openServerTestDatabase();
afterAll(() => pg.db.close());

describe.each([
  { name: "memory", storage: () => undefined },
  { name: `PostgreSQL (${pg.db.backend})`, storage: () => pg.storage },
])("YooKassa refunds through the server on $name", ({ storage }) => {
  it("refunds a paid invoice's payment in part, then the rest, at the emulator; nothing beyond", async () => {
    const s = await startYooKassaServer({ storage: storage() });
    try {
      const invoice = await s.createInvoice();
      const chosen = await s.choose(invoice.id, "card");
      const providerPaymentId = emulatorPaymentIdOf(chosen.location);
      await s.decide(chosen.location, { card: EMULATOR_SUCCESS_CARD });
      expect(await until(async () => (await s.get(`/v1/invoices/${invoice.id}`)).status === "paid")).toBe(
        true,
      );
      const [payment] = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];

      const post = async (body: unknown) => {
        const response = await fetch(`${s.url}/v1/payments/${payment?.id}/refunds`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${s.apiKey}`,
            "content-type": "application/json",
            "idempotency-key": randomUUID(),
          },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as Json };
      };
      const part = await post({ amount: { amount: "50000", currency: "RUB" }, reason: "one item back" });
      expect(part).toMatchObject({ status: 201, body: { status: "succeeded", amount: { amount: "50000" } } });
      const rest = await post({});
      expect(rest).toMatchObject({ status: 201, body: { status: "succeeded", amount: { amount: "99900" } } });
      expect((await post({ amount: { amount: "1", currency: "RUB" } })).body.code).toBe(
        "refund_exceeds_payment",
      );

      // The emulator holds exactly these two refunds, in YooKassa's amount format, each with its own key.
      const atEmulator = [...s.emulator.books.refunds.values()].filter(
        (r) => r.payment_id === providerPaymentId,
      );
      const amounts = atEmulator.map((r) => r.amount as { value: string; currency: string });
      expect(amounts.sort((x, y) => x.value.localeCompare(y.value))).toEqual([
        { value: "500.00", currency: "RUB" },
        { value: "999.00", currency: "RUB" },
      ]);
      const refundPosts = s.emulator.requests.filter(
        (r) => r.method === "POST" && r.path.endsWith("/refunds"),
      );
      expect(new Set(refundPosts.map((r) => r.idempotenceKey)).size).toBe(2);
      expect((await s.get(`/v1/payments/${payment?.id}`)).amountRefunded).toEqual({
        amount: "149900",
        currency: "RUB",
      });
      const listed = (await s.get(`/v1/refunds?paymentId=${payment?.id}`)).data as Json[];
      expect(listed.map((r) => r.id)).toEqual([rest.body.id, part.body.id]);
      expect(await until(() => s.hookTypes().filter((t) => t === "refund.succeeded").length === 2)).toBe(
        true,
      );
    } finally {
      await s.close();
    }
  });
});
