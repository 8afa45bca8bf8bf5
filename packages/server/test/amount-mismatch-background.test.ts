import { randomUUID } from "node:crypto";
import { createKopek, type PaymentProvider } from "@kopek/core";
import { createSandboxLedger } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { manualClock } from "@kopek/testing";
import { expect, it } from "vitest";
import { startKopekBackground } from "../src/background.js";
import { createKopekMetrics } from "../src/metrics/kopek-metrics.js";
import { createLogger } from "../src/startup/logger.js";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { subscriptionBody } from "./helper.js";
import { until } from "./provider-server.js";

/** The sandbox, saying every payment it answers about was for one kopeck more than asked. */
const misstating = (provider: PaymentProvider): PaymentProvider => {
  const more = <T extends { readonly money: { amount: string; currency: string } | null }>(word: T): T =>
    word.money === null ? word : { ...word, money: { ...word.money, amount: `${word.money.amount}1` } };
  return {
    ...provider,
    chargeStoredMethod: (request) => provider.chargeStoredMethod(request).map(more),
    getPayment: (id) => provider.getPayment(id).map(more),
  };
};

// API.md 10.1 in the background jobs `startKopekBackground` starts: the reconciler asks about a first
// charge answered for other money, refuses the word again, and the operator sees it on the metric and
// in the log at error level — without the API having counted it (the create's word went to `createKopek`'s
// own hook, which this test leaves out).
it("the background reconciler logs and counts a provider's word for other money, and settles nothing", async () => {
  const storage = createMemoryStorage();
  const registry = createProviderRegistry({ ledger: createSandboxLedger() });
  const providerFor = (project: Parameters<typeof registry>[0]) => misstating(registry(project));
  const clock = manualClock(new Date());
  const kopek = createKopek({ storage, providerFor, publicUrl: "https://pay.example.test", clock });
  const { apiKey } = (
    await createProjectWithKey(storage, {
      name: "shop",
      provider: { kind: "sandbox", storedMethodCharge: true },
    })
  )._unsafeUnwrap();
  const created = await kopek.handle({
    method: "POST",
    url: "/v1/subscriptions",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "idempotency-key": randomUUID(),
    },
    body: JSON.stringify(subscriptionBody()),
  });
  expect(created.status).toBe(201);
  const subscription = JSON.parse(created.body) as { id: string; status: string };
  expect(subscription.status).toBe("incomplete");

  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: "info",
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const metrics = createKopekMetrics(clock);
  clock.advance(2 * 60_000);
  const background = startKopekBackground({ storage, providerFor, clock, intervalMs: 20, logger, metrics });
  try {
    const counted = async () =>
      (await metrics.registry.metrics()).includes(
        'kopek_provider_amount_mismatch_total{provider="sandbox",kind="payment"} 1',
      );
    expect(await until(counted)).toBe(true);
  } finally {
    await background.stop();
  }
  const errors = lines.filter((line) => line.level === 50 && line.kind === "payment");
  expect(errors[0]).toMatchObject({
    expected: { amount: "149900", currency: "RUB" },
    answered: { amount: "1499001", currency: "RUB" },
    status: "succeeded",
  });
  const read = await kopek.handle({
    method: "GET",
    url: `/v1/subscriptions/${subscription.id}`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(JSON.parse(read.body)).toMatchObject({ status: "incomplete", cyclesStarted: 0 });
});
