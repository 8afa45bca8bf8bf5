import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { type Json, type ProviderServer, startProviderServer, until } from "./provider-server.js";

// Issue 39: a lost answer on any call that moves money never moves it twice, and each run ends with
// the provider's books equal to Kopek's. The sandbox's lost-answer refs (docs/api.md 7) make the
// charge or refund and lose the answer to the call that made it, as a network cut after the
// provider's commit does; everything runs over real HTTP, with the server's reconciler running.

const AMOUNT = { amount: "149900", currency: "RUB" };
const PERIOD = { unit: "month", count: 1 };

let server: ProviderServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(): Promise<ProviderServer> {
  server = await startProviderServer({ kind: "sandbox", storedMethodCharge: true });
  return server;
}

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

/** Kopek's books: every succeeded payment's and refund's amount, to compare with the provider's. */
async function kopekBooks(s: ProviderServer) {
  const payments = (await s.get("/v1/payments?limit=100")).data as Json[];
  const refunds = (await s.get("/v1/refunds?limit=100")).data as Json[];
  return {
    charges: payments.filter((p) => p.status === "succeeded").map((p) => p.amount.amount),
    refunds: refunds.filter((r) => r.status === "succeeded").map((r) => r.amount.amount),
  };
}

function providerBooks(s: ProviderServer) {
  return {
    charges: s.ledger.charges().map((c) => c.money.amount),
    refunds: s.ledger
      .refunds()
      .filter((r) => r.status === "succeeded")
      .map((r) => r.money.amount),
  };
}

/** Moves the server's clock past every check a pending payment or refund waits for, and lets the reconciler run. */
async function reconcile(s: ProviderServer, settled: () => Promise<boolean>) {
  s.time.shift(2 * 60 * 60_000);
  expect(await until(settled, 10_000)).toBe(true);
}

describe("a lost answer on the sandbox, over HTTP", () => {
  it("first charge: 503, the retry with the same key answers the one charge; the books agree", async () => {
    const s = await start();
    const key = randomUUID();
    const body = {
      amount: AMOUNT,
      period: PERIOD,
      method: "card",
      providerMethodRef: "sandbox_lost_answer_1",
    };
    const lost = await postWithKey(s, "/v1/subscriptions", body, key);
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect(lost.body.code).toBe("provider_unavailable");
    expect(s.ledger.charges()).toHaveLength(1);

    const retried = await postWithKey(s, "/v1/subscriptions", body, key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body).toMatchObject({ status: "active", cyclesStarted: 1 });
    expect(s.ledger.charges()).toHaveLength(1);
    expect(await kopekBooks(s)).toEqual(providerBooks(s));
  });

  it("first charge never retried: reconciliation finds the charge by its key and refunds it; the books agree", async () => {
    const s = await start();
    const body = {
      amount: AMOUNT,
      period: PERIOD,
      method: "card",
      providerMethodRef: "sandbox_lost_answer_2",
    };
    expect((await postWithKey(s, "/v1/subscriptions", body, randomUUID())).status).toBe(503);
    await reconcile(s, async () => s.ledger.refunds().some((r) => r.status === "succeeded"));
    expect(providerBooks(s)).toEqual({ charges: ["149900"], refunds: ["149900"] });
    expect((await s.get("/v1/subscriptions")).data).toEqual([]);
    expect(await kopekBooks(s)).toEqual(providerBooks(s));
  });

  it("renewal: the lost charge is sent again with its key, never a second charge; the books agree", async () => {
    const s = await start();
    const key = randomUUID();
    const body = {
      amount: AMOUNT,
      period: PERIOD,
      method: "card",
      providerMethodRef: "sandbox_lost_answer_3",
    };
    expect((await postWithKey(s, "/v1/subscriptions", body, key)).status).toBe(503);
    const created = await postWithKey(s, "/v1/subscriptions", body, key);
    expect(created.status).toBe(201);
    const due = Date.parse(created.body.nextChargeAt) - s.time.clock.now().getTime() + 1000;
    s.time.shift(due);
    expect(await s.renewals.runOnce()).toMatchObject({ claimed: 1, charged: 0 });
    expect(s.ledger.charges()).toHaveLength(2);
    // The worker's lease ends; the attempt is due again and sent with the same key.
    s.time.shift(5 * 60_000);
    await until(async () => {
      await s.renewals.runOnce();
      const subscription = await s.get(`/v1/subscriptions/${created.body.id}`);
      return subscription.cyclesStarted === 2;
    });
    expect(await s.get(`/v1/subscriptions/${created.body.id}`)).toMatchObject({
      status: "active",
      cyclesStarted: 2,
    });
    expect(s.ledger.charges()).toHaveLength(2);
    const payments = (await s.get(`/v1/payments?subscriptionId=${created.body.id}`)).data as Json[];
    expect(payments.map((p) => [p.cycle, p.status])).toEqual([
      [2, "succeeded"],
      [1, "succeeded"],
    ]);
    expect(await kopekBooks(s)).toEqual(providerBooks(s));
  });

  it("refund: kept pending with its amount held, settled by reconciliation with the same key, once; the books agree", async () => {
    const s = await start();
    const body = {
      amount: AMOUNT,
      period: PERIOD,
      method: "card",
      providerMethodRef: "sandbox_refund_lost_answer_1",
    };
    const created = await postWithKey(s, "/v1/subscriptions", body, randomUUID());
    expect(created.status).toBe(201);
    const [payment] = (await s.get(`/v1/payments?subscriptionId=${created.body.id}`)).data as Json[];
    const refundBody = { amount: { amount: "50000", currency: "RUB" } };
    const key = randomUUID();
    const lost = await postWithKey(s, `/v1/payments/${payment?.id}/refunds`, refundBody, key);
    // docs/api.md 6.2b: always 201 with the refund as it stands — pending, its amount held.
    expect(lost.status, JSON.stringify(lost.body)).toBe(201);
    expect(lost.body).toMatchObject({ status: "pending", amount: { amount: "50000" } });
    expect(s.ledger.refunds()).toHaveLength(1);
    const tooMuch = { amount: { amount: "100000", currency: "RUB" } };
    expect((await postWithKey(s, `/v1/payments/${payment?.id}/refunds`, tooMuch, randomUUID())).status).toBe(
      422,
    );
    // Retried by the client (its stored answer), then settled by reconciliation: one refund at the provider.
    const replayed = await postWithKey(s, `/v1/payments/${payment?.id}/refunds`, refundBody, key);
    expect(replayed.body.id).toBe(lost.body.id);
    await reconcile(s, async () => {
      const refunds = (await s.get(`/v1/refunds?paymentId=${payment?.id}`)).data as Json[];
      return refunds.length === 1 && refunds[0]?.status === "succeeded";
    });
    expect(s.ledger.refunds()).toHaveLength(1);
    expect((await s.get(`/v1/payments/${payment?.id}`)).amountRefunded).toEqual({
      amount: "50000",
      currency: "RUB",
    });
    expect(await kopekBooks(s)).toEqual(providerBooks(s));
  });
});
