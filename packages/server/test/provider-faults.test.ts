import { createHttpProvider, startProviderService } from "@kopek/provider-http";
import {
  createSandboxLedger,
  createSandboxProvider,
  sandboxMethodFingerprint,
} from "@kopek/provider-sandbox";
import { afterAll, expect, test } from "vitest";
import { type Fault, startFaultyProxy } from "../../provider-http/test/faulty-proxy.js";
import { buildTestApp, json, subscriptionBody, uniqueMethodRef } from "./helper.js";

// Kopek over real HTTP to an out-of-process-style provider service, with a faulty network in between.
const ledger = createSandboxLedger();
const service = await startProviderService({ provider: createSandboxProvider({ ledger }), port: 0 });
const proxy = await startFaultyProxy(service.url);
const provider = createHttpProvider({
  url: proxy.url,
  allowLocal: true,
  timeoutMs: 300,
  retryDelayMs: () => 10,
});
const t = await buildTestApp({ wrapProvider: () => provider });
afterAll(async () => {
  await t.app.close();
  await proxy.close();
  await service.close();
});

test.each<[string, number, string, Fault[]]>([
  [
    "a charge answered after the timeout",
    503,
    "provider_unavailable",
    [
      { kind: "slow", delayMs: 0 },
      { kind: "slow", delayMs: 500 },
    ],
  ],
  [
    "a 500 on the charge (an unknown outcome)",
    503,
    "provider_unavailable",
    [
      { kind: "slow", delayMs: 0 },
      { kind: "status", status: 500 },
    ],
  ],
  [
    "a 503 on the charge, after the provider acted",
    503,
    "provider_unavailable",
    [
      { kind: "slow", delayMs: 0 },
      { kind: "status", status: 503, forwardFirst: true },
    ],
  ],
  [
    "connection resets past the retries",
    503,
    "provider_unavailable",
    [{ kind: "reset" }, { kind: "reset" }, { kind: "reset" }],
  ],
  [
    "a charge reset after the provider acted, then refused twice",
    503,
    "provider_unavailable",
    [
      { kind: "slow", delayMs: 0 },
      { kind: "reset", forwardFirst: true },
      { kind: "reset" },
      { kind: "reset" },
    ],
  ],
  [
    "a malformed JSON answer to the charge",
    502,
    "provider_error",
    [
      { kind: "slow", delayMs: 0 },
      { kind: "malformed", body: '{"chargeId":' },
    ],
  ],
])(
  "%s: %i %s, the key released, the retry succeeds with exactly one charge",
  async (_name, status, code, faults) => {
    const body = subscriptionBody({
      providerMethodRef: uniqueMethodRef("pm_fault"),
    });
    const key = crypto.randomUUID();
    proxy.inject(...faults);
    const failed = await t.post("/v1/subscriptions", body, { "idempotency-key": key });
    expect(failed.statusCode).toBe(status);
    expect(failed.headers["content-type"]).toBe("application/problem+json");
    expect(json(failed)).toMatchObject({ status, code, type: `urn:kopek:problem:${code}` });
    await new Promise((resolve) => setTimeout(resolve, 300)); // a slow answer lands meanwhile: harmless

    const retried = await t.post("/v1/subscriptions", body, { "idempotency-key": key });
    expect(retried.statusCode).toBe(201);
    expect(ledger.countCharges({ methodFingerprint: sandboxMethodFingerprint(body.providerMethodRef) })).toBe(
      1,
    );
    const replay = await t.post("/v1/subscriptions", body, { "idempotency-key": key });
    expect(replay.statusCode).toBe(200);
    expect(ledger.countCharges({ methodFingerprint: sandboxMethodFingerprint(body.providerMethodRef) })).toBe(
      1,
    );
  },
);
