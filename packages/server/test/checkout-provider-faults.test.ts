import { afterEach, describe, expect, it } from "vitest";
import { kopekBooks, tbankBooks, yooKassaBooks } from "./provider-books.js";
import { type Json, type ProviderServer, until } from "./provider-server.js";
import { startTBankServer, tbankPaymentIdOf } from "./tbank-fixture.js";
import { emulatorPaymentIdOf, startYooKassaServer } from "./yookassa-fixture.js";

// Issue 39, the payer's side over real HTTP against each provider's emulator: the answer to the call
// that makes the checkout payment (YooKassa's POST /payments, T-Bank's Init) lost; two methods paid
// for one invoice; the provider's word for another amount (API.md 10.1). Each ends with the
// provider's books compared with Kopek's.

type Method = "card" | "sbp";

interface Checkout {
  readonly server: ProviderServer;
  /** Loses the answer to the next call that makes a checkout payment, after the provider made it. */
  loseNextCreate(): void;
  /**
   * Whether the adapter recovers a lost create within the payer's one choice (T-Bank: CheckOrder, the
   * orphan canceled, Init again) rather than telling the payer "could not be reached" (502).
   */
  readonly recoversLostCreate: boolean;
  /** The payer pays at the provider's page the payer was sent to; resolves once its notifications were delivered. */
  pay(confirmationUrl: string, method: Method): Promise<void>;
  /** The provider now says the payment behind this page is for `minor` (the word Kopek must not trust). */
  misstate(confirmationUrl: string, minor: number): void;
  /** How many answers the provider lost so far (its faults after processing). */
  lostAnswers(): number;
  /** Amounts (minor units) of the payments the provider took and of its refunds. */
  books(): { charges: string[]; refunds: string[] };
  close(): Promise<void>;
}

const PROVIDERS: readonly { readonly name: string; start(): Promise<Checkout> }[] = [
  {
    name: "the YooKassa emulator",
    async start() {
      const server = await startYooKassaServer();
      const { emulator } = server;
      return {
        server,
        // Made, then every attempt of the adapter's retries (1 + 3) answered 500.
        loseNextCreate: () =>
          emulator.failNext(4, "500", { afterProcessing: true, request: "POST /v3/payments" }),
        recoversLostCreate: false,
        lostAnswers: () => emulator.requests.filter((r) => r.status === 500).length,
        async pay(confirmationUrl) {
          await server.decide(confirmationUrl, { card: "5555555555554477" });
          await emulator.deliveries();
        },
        misstate(confirmationUrl, minor) {
          const payment = emulator.books.payments.get(emulatorPaymentIdOf(confirmationUrl)) as Json;
          payment.amount = { value: (minor / 100).toFixed(2), currency: "RUB" };
        },
        books: () => yooKassaBooks(emulator),
        close: () => server.close(),
      };
    },
  },
  {
    name: "the T-Bank emulator",
    async start() {
      const server = await startTBankServer();
      const { emulator } = server;
      return {
        server,
        // Init is sent once (never repeated blindly): its one answer is lost.
        loseNextCreate: () => emulator.failNext(1, "500", { afterProcessing: true, method: "Init" }),
        recoversLostCreate: true,
        lostAnswers: () => emulator.requests.filter((r) => r.status === 500).length,
        async pay(confirmationUrl) {
          const status = await server.payAt(confirmationUrl);
          expect(status).toBe(303);
        },
        misstate(confirmationUrl, minor) {
          const payment = emulator.books.payments.get(tbankPaymentIdOf(confirmationUrl)) as unknown as Json;
          payment.Amount = minor;
        },
        books: () => tbankBooks(emulator),
        close: () => server.close(),
      };
    },
  },
];

let running: Checkout | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe.each(PROVIDERS)("the payer's checkout on $name", (provider) => {
  const start = async () => {
    running = await provider.start();
    return running;
  };

  it.each<Method>(["card", "sbp"])(
    "%s: the answer that made the payment is lost — the payer chooses again and pays once; the books agree",
    async (method) => {
      const c = await start();
      const s = c.server;
      const invoice = await s.createInvoice();
      c.loseNextCreate();
      const first = await s.choose(invoice.id, method);
      expect(first.status).toBe(c.recoversLostCreate ? 303 : 502); // 502: "could not be reached" (10.3)
      const chosen = first.status === 303 ? first : await s.choose(invoice.id, method);
      expect(chosen.status).toBe(303);
      expect(c.lostAnswers()).toBeGreaterThan(0);
      await c.pay(chosen.location, method);
      expect(await until(async () => (await s.get(`/v1/invoices/${invoice.id}`)).status === "paid")).toBe(
        true,
      );
      expect(c.books()).toEqual({ charges: ["149900"], refunds: [] });
      expect(await kopekBooks(s)).toEqual(c.books());
    },
  );

  it("a second method paid for a paid invoice is refunded in full, once; the books agree", async () => {
    const c = await start();
    const s = c.server;
    const invoice = await s.createInvoice();
    // Two tabs: one chose card, the other SBP, and the payer paid in both.
    const card = await s.choose(invoice.id, "card");
    const sbp = await s.choose(invoice.id, "sbp");
    expect([card.status, sbp.status]).toEqual([303, 303]);
    await c.pay(card.location, "card");
    await c.pay(sbp.location, "sbp");
    expect(
      await until(async () => {
        const refunds = (await s.get("/v1/refunds")).data as Json[];
        return refunds.length === 1 && refunds[0]?.status === "succeeded";
      }),
    ).toBe(true);
    expect(c.books()).toEqual({ charges: ["149900", "149900"], refunds: ["149900"] });
    expect(await kopekBooks(s)).toEqual(c.books());
    expect(await s.get(`/v1/invoices/${invoice.id}`)).toMatchObject({ status: "paid" });
    expect(await until(() => s.hookTypes().includes("refund.succeeded"))).toBe(true);
    expect(s.hookTypes().filter((type) => type === "invoice.paid")).toHaveLength(1);
  });

  it("a word for another amount settles nothing: the invoice stays unpaid, the payment pending, the mismatch logged", async () => {
    const c = await start();
    const s = c.server;
    const invoice = await s.createInvoice();
    const chosen = await s.choose(invoice.id, "card");
    c.misstate(chosen.location, 100); // the provider now says 1.00 RUB for the 1,499.00 invoice
    await c.pay(chosen.location, "card");
    // The notification and the payer's return were both heard, and both asked the provider.
    await fetch(`${s.url}/pay/${invoice.id}/return?payment=x`).then((r) => r.body?.cancel());
    expect(
      await until(() => s.logLines.some((line) => line.includes("for other money than Kopek asked"))),
    ).toBe(true);
    expect(await s.get(`/v1/invoices/${invoice.id}`)).toMatchObject({ status: "created" });
    const payments = (await s.get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
    expect(payments.map((p) => p.status)).toEqual(["pending"]);
    const logged = JSON.parse(s.logLines.find((line) => line.includes("for other money")) ?? "{}");
    expect(logged).toMatchObject({
      level: 50,
      expected: { amount: "149900", currency: "RUB" },
      answered: { amount: "100", currency: "RUB" },
    });
    expect(s.hookTypes()).not.toContain("invoice.paid");
  });
});
