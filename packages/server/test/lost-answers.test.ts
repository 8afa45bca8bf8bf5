import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { kopekBooks, tbankBooks, yooKassaBooks } from "./provider-books.js";
import { type Json, type ProviderServer, startProviderServer, until } from "./provider-server.js";
import { startTBankServer } from "./tbank-fixture.js";
import { startYooKassaServer } from "./yookassa-fixture.js";

// Issue 39: a lost answer on any call that moves money never moves it twice, and each run ends with
// the provider's books equal to Kopek's. The provider makes the charge or refund and the answer to
// the call that made it is lost, as a network cut after the provider's commit loses it: the sandbox's
// lost-answer refs (docs/api.md 7), an emulator's faults after processing on every attempt of the
// adapter's retries. Everything runs over real HTTP, with the server's reconciler running.

const AMOUNT = { amount: "149900", currency: "RUB" };
const PERIOD = { unit: "month", count: 1 };

/** A server on one provider, and how to make that provider lose an answer. */
interface LossyProvider {
  readonly server: ProviderServer;
  /** A saved method whose next charge's answer is lost (`charge`), or whose refunds' are (`refund`). */
  methodRef(lose: "charge" | "refund"): string;
  /** Arms the loss of the next answer to a call of this kind, where the provider is told per call. */
  loseNext(call: "charge" | "refund"): void;
  /** The provider's own books: the amounts of every payment Kopek made there that succeeded, and of every refund. */
  books(): { charges: string[]; refunds: string[] };
  close(): Promise<void>;
}

const PROVIDERS: readonly {
  readonly name: string;
  /** The saved method's kind the subscriptions are made on. */
  readonly method: "card" | "sbp";
  /**
   * How the refund whose answer was lost first stands: `pending` (asked again later with its key), or
   * `succeeded` where the adapter learns at once that it went through (T-Bank SBP: GetState shows the
   * payment refunded, as an SBP Cancel is never sent twice).
   */
  readonly lostRefundAnswer: "pending" | "succeeded";
  start(): Promise<LossyProvider>;
}[] = [
  {
    name: "the sandbox",
    method: "card",
    lostRefundAnswer: "pending",
    async start() {
      const server = await startProviderServer({ kind: "sandbox", storedMethodCharge: true });
      let n = 0;
      return {
        server,
        // The sandbox's lost-answer refs (docs/api.md 7) lose every answer of that kind by themselves.
        methodRef: (lose) =>
          `${lose === "charge" ? "sandbox_lost_answer" : "sandbox_refund_lost_answer"}_${++n}`,
        loseNext: () => {},
        books: () => ({
          charges: server.ledger.charges().map((c) => c.money.amount),
          refunds: server.ledger
            .refunds()
            .filter((r) => r.status === "succeeded")
            .map((r) => r.money.amount),
        }),
        close: () => server.close(),
      };
    },
  },
  {
    name: "the YooKassa emulator",
    method: "card",
    lostRefundAnswer: "pending",
    async start() {
      const server = await startYooKassaServer();
      const { emulator } = server;
      return {
        server,
        methodRef: () => emulator.books.seedSavedMethod(),
        // Processed, then every attempt of the adapter's retrying exchange (1 + 3 retries) answered 500.
        loseNext: (call) =>
          emulator.failNext(4, "500", {
            afterProcessing: true,
            request: call === "charge" ? "POST /v3/payments" : "POST /v3/refunds",
          }),
        books: () => yooKassaBooks(emulator),
        close: () => server.close(),
      };
    },
  },
  {
    name: "the T-Bank emulator",
    method: "card",
    lostRefundAnswer: "pending",
    async start() {
      const server = await startTBankServer();
      const { emulator } = server;
      return {
        server,
        methodRef: () => emulator.books.seedSavedCard(),
        // Processed, then every attempt of the adapter's retrying exchange (1 + 3 retries) answered 500.
        loseNext: (call) =>
          emulator.failNext(4, "500", {
            afterProcessing: true,
            method: call === "charge" ? "Charge" : "Cancel",
          }),
        books: () => tbankBooks(emulator),
        close: () => server.close(),
      };
    },
  },
  {
    // A bound SBP account: charged with Init + ChargeQr, refunded with a Cancel T-Bank never repeats safely.
    name: "the T-Bank emulator, SBP",
    method: "sbp",
    lostRefundAnswer: "succeeded",
    async start() {
      const server = await startTBankServer({ storedMethods: ["card", "sbp"] });
      const { emulator } = server;
      return {
        server,
        methodRef: () => emulator.accounts.seedBoundAccount(),
        // ChargeQr is retried (1 + 3 attempts, all answered 500); an SBP Cancel is sent once.
        loseNext: (call) =>
          call === "charge"
            ? emulator.failNext(4, "500", { afterProcessing: true, method: "ChargeQr" })
            : emulator.failNext(1, "500", { afterProcessing: true, method: "Cancel" }),
        books: () => tbankBooks(emulator),
        close: () => server.close(),
      };
    },
  },
];

let running: LossyProvider | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

/** A POST with the given Idempotency-Key, as a client retrying one request sends it. */
async function postWithKey(s: ProviderServer, path: string, body: unknown, key: string) {
  const answer = await fetch(`${s.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${s.apiKey}`,
      "idempotency-key": key,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Json };
}

/** Moves the server's clock past every check a pending payment or refund waits for, and lets the reconciler run. */
async function reconcile(s: ProviderServer, settled: () => Promise<boolean>) {
  s.time.shift(2 * 60 * 60_000);
  expect(await until(settled, 10_000)).toBe(true);
}

describe.each(PROVIDERS)("a lost answer on $name, over HTTP", (provider) => {
  const start = async () => {
    running = await provider.start();
    return running;
  };
  const subscriptionOn = (ref: string) => ({
    amount: AMOUNT,
    period: PERIOD,
    method: provider.method,
    providerMethodRef: ref,
  });

  it("first charge: 503, the retry with the same key answers the one charge; the books agree", async () => {
    const p = await start();
    const s = p.server;
    const key = randomUUID();
    const body = subscriptionOn(p.methodRef("charge"));
    p.loseNext("charge");
    const lost = await postWithKey(s, "/v1/subscriptions", body, key);
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect(lost.body.code).toBe("provider_unavailable");
    expect(p.books().charges).toEqual(["149900"]);

    const retried = await postWithKey(s, "/v1/subscriptions", body, key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body).toMatchObject({ status: "active", cyclesStarted: 1 });
    expect(p.books().charges).toEqual(["149900"]);
    expect(await kopekBooks(s)).toEqual(p.books());
  });

  it("first charge never retried: reconciliation finds the charge by its key and refunds it; the books agree", async () => {
    const p = await start();
    const s = p.server;
    const body = subscriptionOn(p.methodRef("charge"));
    p.loseNext("charge");
    expect((await postWithKey(s, "/v1/subscriptions", body, randomUUID())).status).toBe(503);
    await reconcile(s, async () => p.books().refunds.length > 0);
    expect(p.books()).toEqual({ charges: ["149900"], refunds: ["149900"] });
    expect((await s.get("/v1/subscriptions")).data).toEqual([]);
    expect(await kopekBooks(s)).toEqual(p.books());
  });

  /** A subscription on `ref`, active: retried with its key when the provider's ref lost the first answer too. */
  async function subscribed(p: LossyProvider, ref: string): Promise<Json> {
    const key = randomUUID();
    let created = await postWithKey(p.server, "/v1/subscriptions", subscriptionOn(ref), key);
    if (created.status === 503)
      created = await postWithKey(p.server, "/v1/subscriptions", subscriptionOn(ref), key);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }

  it("renewal: the lost charge is sent again with its key, never a second charge; the books agree", async () => {
    const p = await start();
    const s = p.server;
    const subscription = await subscribed(p, p.methodRef("charge"));
    p.loseNext("charge");
    s.time.shift(Date.parse(subscription.nextChargeAt) - s.time.clock.now().getTime() + 1000);
    expect(await s.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 0 });
    expect(p.books().charges).toEqual(["149900", "149900"]);
    // The worker's lease ends; the attempt is due again and sent with the same key.
    s.time.shift(5 * 60_000);
    await until(async () => {
      await s.renewals.runOnce();
      return (await s.get(`/v1/subscriptions/${subscription.id}`)).cyclesStarted === 2;
    });
    expect(await s.get(`/v1/subscriptions/${subscription.id}`)).toMatchObject({
      status: "active",
      cyclesStarted: 2,
    });
    expect(p.books().charges).toEqual(["149900", "149900"]);
    const payments = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
    expect(payments.map((payment) => [payment.cycle, payment.status])).toEqual([
      [2, "succeeded"],
      [1, "succeeded"],
    ]);
    expect(await kopekBooks(s)).toEqual(p.books());
  });

  it("refund: answered pending (its amount held) or found done, settled with the same key, once; the books agree", async () => {
    const p = await start();
    const s = p.server;
    const subscription = await subscribed(p, p.methodRef("refund"));
    const [payment] = (await s.get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
    const refunds = `/v1/payments/${payment?.id}/refunds`;
    const refundBody = { amount: { amount: "50000", currency: "RUB" } };
    const key = randomUUID();
    p.loseNext("refund");
    const lost = await postWithKey(s, refunds, refundBody, key);
    // docs/api.md 6.2b: always 201 with the refund as it stands — pending with its amount held, or
    // succeeded when the adapter learned at once that it went through.
    expect(lost.status, JSON.stringify(lost.body)).toBe(201);
    expect(lost.body).toMatchObject({ status: provider.lostRefundAnswer, amount: { amount: "50000" } });
    expect(p.books().refunds).toEqual(["50000"]);
    const tooMuch = { amount: { amount: "100000", currency: "RUB" } };
    expect((await postWithKey(s, refunds, tooMuch, randomUUID())).status).toBe(422);
    // Retried by the client (its stored answer), then settled by reconciliation: one refund at the provider.
    const replayed = await postWithKey(s, refunds, refundBody, key);
    expect(replayed.body.id).toBe(lost.body.id);
    await reconcile(s, async () => {
      const listed = (await s.get(`/v1/refunds?paymentId=${payment?.id}`)).data as Json[];
      return listed.length === 1 && listed[0]?.status === "succeeded";
    });
    expect(p.books().refunds).toEqual(["50000"]);
    expect((await s.get(`/v1/payments/${payment?.id}`)).amountRefunded).toEqual({
      amount: "50000",
      currency: "RUB",
    });
    expect(await kopekBooks(s)).toEqual(p.books());
  });
});
