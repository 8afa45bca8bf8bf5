import { createSandboxProvider } from "@kopek/provider-sandbox";
import { describe, expect, it } from "vitest";
import { createKopekMetrics, PENDING_PAYMENT_AGES } from "./kopek-metrics.js";
import { observedProvider } from "./observed-provider.js";

const charge = (ref: string) => ({
  paymentId: "p1",
  ref,
  method: "card" as const,
  money: { amount: "100", currency: "RUB" },
  description: "",
  receipt: null,
  idempotencyKey: `k-${ref}`,
});

describe("metrics", () => {
  it("count provider calls by outcome and pass the answers through unchanged", async () => {
    const metrics = createKopekMetrics();
    const sandbox = createSandboxProvider();
    const provider = observedProvider(sandbox, "sandbox", metrics);
    const ok = await provider.chargeStoredMethod(charge("pm_metrics_ok"));
    const down = await provider.chargeStoredMethod(charge("sandbox_unavailable_metrics"));
    expect(ok.isOk() && ok.value.status).toBe("succeeded");
    expect(down.isErr() && down.error.code).toBe("unavailable");
    expect(provider.capabilities).toBe(sandbox.capabilities);
    const text = await metrics.registry.metrics();
    for (const outcome of ["ok", "unavailable"])
      expect(text).toContain(
        `kopek_provider_call_duration_seconds_count{provider="sandbox",operation="chargeStoredMethod",outcome="${outcome}"} 1`,
      );
  });

  it("observe webhook attempts at their event's age in the outbox", async () => {
    const metrics = createKopekMetrics();
    metrics.webhookAttempt("delivered", 0.05);
    metrics.webhookAttempt("retry", 120);
    const text = await metrics.registry.metrics();
    expect(text).toContain('kopek_webhook_delivery_queue_age_seconds_bucket{le="0.1",outcome="delivered"} 1');
    expect(text).toContain('kopek_webhook_delivery_queue_age_seconds_bucket{le="60",outcome="retry"} 0');
    expect(text).toContain('kopek_webhook_delivery_queue_age_seconds_bucket{le="300",outcome="retry"} 1');
  });
});

describe("pending payments by age", () => {
  it("are counted at each refresh, read by the scrapes between, cumulatively by age, left out when counting fails", async () => {
    const metrics = createKopekMetrics();
    expect(await metrics.registry.metrics()).not.toContain("kopek_pending_payments{");
    let answer: readonly number[] | null = [7, 4, 2, 1, 0];
    const asked: (readonly Date[])[] = [];
    metrics.countPendingPaymentsWith(async (cutoffs) => {
      asked.push(cutoffs);
      return answer;
    });
    expect(await metrics.registry.metrics()).not.toContain("kopek_pending_payments{");
    await metrics.refreshPendingPayments();
    const text = await metrics.registry.metrics();
    expect(text).toContain('kopek_pending_payments{older_than_seconds="0"} 7');
    expect(text).toContain('kopek_pending_payments{older_than_seconds="300"} 2');
    expect(text).toContain('kopek_pending_payments{older_than_seconds="86400"} 0');
    const [cutoffs] = asked;
    expect(cutoffs?.length).toBe(PENDING_PAYMENT_AGES.length);
    expect((cutoffs?.[0]?.getTime() ?? 0) - (cutoffs?.[1]?.getTime() ?? 0)).toBe(60_000);
    await metrics.registry.metrics();
    expect(asked.length).toBe(1); // scrapes read the refreshed figures; they never count
    answer = null;
    await metrics.refreshPendingPayments();
    expect(await metrics.registry.metrics()).not.toContain("kopek_pending_payments{");
  });

  it("are aged from the server's clock, not the wall clock (a test clock agrees with createdAt)", async () => {
    const at = new Date("2031-02-03T04:05:06.000Z");
    const metrics = createKopekMetrics({ now: () => at });
    const asked: (readonly Date[])[] = [];
    metrics.countPendingPaymentsWith(async (cutoffs) => {
      asked.push(cutoffs);
      return cutoffs.map(() => 0);
    });
    await metrics.refreshPendingPayments();
    expect(asked[0]?.map((cutoff) => cutoff.toISOString())).toEqual([
      "2031-02-03T04:05:06.000Z",
      "2031-02-03T04:04:06.000Z",
      "2031-02-03T04:00:06.000Z",
      "2031-02-03T03:05:06.000Z",
      "2031-02-02T04:05:06.000Z",
    ]);
  });
});
