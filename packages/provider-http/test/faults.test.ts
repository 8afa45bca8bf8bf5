import { createServer } from "node:net";
import type { StoredMethodCharge } from "@kopek/core";
import { createSandboxLedger, createSandboxProvider } from "@kopek/provider-sandbox";
import { afterAll, describe, expect, test } from "vitest";
import { createHttpProvider, startProviderService } from "../src/index.js";
import { startFaultyProxy } from "./faulty-proxy.js";

const ledger = createSandboxLedger();
const service = await startProviderService({ provider: createSandboxProvider({ ledger }), port: 0 });
const proxy = await startFaultyProxy(service.url);
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const provider = createHttpProvider({
  url: proxy.url,
  allowLocal: true,
  timeoutMs: 300,
  retryDelayMs: () => 10,
});
const charge = (): StoredMethodCharge => ({
  paymentId: crypto.randomUUID(),
  ref: `pm_fault_${crypto.randomUUID()}`,
  method: "card",
  money: { amount: "149900", currency: "RUB" },
  description: "fault test",
  receipt: null,
  idempotencyKey: crypto.randomUUID(),
});
const chargesFor = (key: string) => ledger.countCharges({ idempotencyKey: key });

describe("a provider behind a faulty network", () => {
  test("an answer slower than the timeout: unavailable; the retry replays the one charge", async () => {
    const request = charge();
    proxy.inject({ kind: "slow", delayMs: 800 });
    const slow = await provider.chargeStoredMethod(request);
    expect(slow._unsafeUnwrapErr()).toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/within 300 ms/),
    });
    expect(chargesFor(request.idempotencyKey)).toBe(1); // the provider did charge
    const retried = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
    expect(retried.providerPaymentId).toBe(
      ledger.charges().find((c) => c.idempotencyKey === request.idempotencyKey)?.chargeId,
    );
    expect(chargesFor(request.idempotencyKey)).toBe(1);
  });

  test.each([
    [500, "unavailable"],
    [502, "unavailable"],
    [503, "unavailable"],
    [504, "unavailable"],
    [400, "failed"],
  ] as const)("a bare %i: %s", async (status, code) => {
    proxy.inject({ kind: "status", status });
    const result = await provider.chargeStoredMethod(charge());
    expect(result._unsafeUnwrapErr().code).toBe(code);
  });

  test("connection resets are retried: two resets, then the charge goes through once", async () => {
    const request = charge();
    proxy.inject({ kind: "reset", forwardFirst: true }, { kind: "reset" });
    const before = proxy.forwarded();
    const receipt = (await provider.chargeStoredMethod(request))._unsafeUnwrap();
    expect(receipt.providerPaymentId).toMatch(/^ch_/);
    expect(proxy.forwarded() - before).toBe(2); // the first attempt charged, the third replayed it
    expect(chargesFor(request.idempotencyKey)).toBe(1);
  });

  test("resets past the retries: unavailable", async () => {
    proxy.inject({ kind: "reset" }, { kind: "reset" }, { kind: "reset" });
    const result = await provider.chargeStoredMethod(charge());
    expect(result._unsafeUnwrapErr()).toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/3 attempts/),
    });
  });

  test.each([
    ["not JSON", "{not json"],
    ["JSON of the wrong shape", '{"chargeId":42}'],
    ["a receipt without a date", '{"chargeId":"ch_1","chargedAt":"yesterday"}'],
  ])("a 200 that is %s: failed", async (_name, body) => {
    proxy.inject({ kind: "malformed", body });
    expect((await provider.chargeStoredMethod(charge()))._unsafeUnwrapErr().code).toBe("failed");
  });

  test("a malformed description and payment link: failed", async () => {
    proxy.inject({ kind: "malformed", body: '{"kind":"card","first6":"12","last4":"1234","length":16}' });
    const described = await provider.describeStoredMethod({ ref: "pm_x_1234567890", method: "card" });
    expect(described._unsafeUnwrapErr().code).toBe("failed");
    proxy.inject({ kind: "malformed", body: '{"url":"javascript:alert(1)"}' });
    const link = await provider.createPaymentLink({
      invoiceId: crypto.randomUUID(),
      money: { amount: "100", currency: "RUB" },
      description: "x",
      methods: ["card"],
      expiresAt: new Date(Date.now() + 60_000),
      hostedPageUrl: "https://pay.example.test/pay/1",
      idempotencyKey: crypto.randomUUID(),
    });
    expect(link._unsafeUnwrapErr().code).toBe("failed");
  });
});

test("nothing listening: unavailable after the retries", async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const refused = createHttpProvider({
    url: `http://127.0.0.1:${port}`,
    allowLocal: true,
    retryDelayMs: () => 1,
  });
  const result = await refused.chargeStoredMethod(charge());
  expect(result._unsafeUnwrapErr()).toMatchObject({ code: "unavailable" });
});
