import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { subscriptionBody, uniqueMethodRef } from "./helper.js";
import { saveAtPage } from "./method-page.js";
import { postJson } from "./server-process.js";

type Json = Record<string, unknown>;
const RUB = (amount: string) => ({ amount, currency: "RUB" });

/**
 * API.md 11 on a running `kopek serve`, as an integrator walks it: a customer, a subscription billing
 * it, a price raised with proration, a cancel at period end, a trial, a new card saved through the
 * payer's link, and the customer erased.
 */
export async function checkManaging(baseUrl: string, apiKey: string): Promise<void> {
  const post = async (path: string, body: unknown, status: number) => {
    const answer = await postJson(`${baseUrl}${path}`, apiKey, randomUUID(), body);
    expect(answer.status, `${path}: ${answer.body}`).toBe(status);
    return JSON.parse(answer.body) as Json;
  };
  const get = async (path: string) =>
    (await (
      await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })
    ).json()) as Json;

  const email = `payer-${randomUUID()}@example.com`;
  const customer = await post("/v1/customers", { email, externalId: randomUUID() }, 201);
  const subscription = await post(
    "/v1/subscriptions",
    { ...subscriptionBody({ providerMethodRef: uniqueMethodRef("pm_managing") }), customerId: customer.id },
    201,
  );
  const path = `/v1/subscriptions/${subscription.id}`;
  expect(subscription.customerId).toBe(customer.id);

  const raised = await post(path, { amount: RUB("299900"), proration: "charge_now" }, 200);
  expect(raised).toMatchObject({ amount: RUB("299900"), nextChargeAt: subscription.nextChargeAt });
  const payments = (await get(`/v1/payments?subscriptionId=${subscription.id}`)).data as Json[];
  expect(payments.map((p) => [p.kind, p.status, p.cycle])).toEqual([
    ["proration", "succeeded", 1],
    ["cycle", "succeeded", 1],
  ]);
  // Right after the start nearly the whole cycle remains: nearly the whole raise, never more.
  const prorated = BigInt(String((payments[0]?.amount as Json | undefined)?.amount));
  expect(prorated > 149000n && prorated <= 150000n).toBe(true);

  expect(await post(`${path}/cancel`, { at: "period_end" }, 200)).toMatchObject({
    status: "active",
    cancelAtPeriodEnd: true,
    cancelAt: subscription.nextChargeAt,
  });

  const trialEnd = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const trial = await post(
    "/v1/subscriptions",
    { ...subscriptionBody({ providerMethodRef: uniqueMethodRef("pm_trial") }), trialEnd },
    201,
  );
  expect(trial).toMatchObject({ status: "trialing", cyclesStarted: 0, nextChargeAt: trialEnd });

  // The payer saves a new card for the trial through the link (a 1.00 RUB check, refunded at once).
  const link = await post(`/v1/subscriptions/${trial.id}/method-update`, {}, 201);
  expect(String(link.url).startsWith(`${baseUrl}/method/`)).toBe(true);
  const saved = await saveAtPage(String(link.url));
  expect(saved).toMatchObject({ chosen: 303, status: 200 });
  expect(saved.body).toContain("Payment method updated");
  // Refunded at once by whichever of the payer's return and the sandbox's notification settled the check
  // (they race; the loser only re-reads): asked again for a few seconds.
  const checksNow = async () => (await get(`/v1/payments?subscriptionId=${trial.id}`)).data as Json[];
  let checks = await checksNow();
  for (let i = 0; i < 100 && (checks[0]?.amountRefunded as Json | undefined)?.amount !== "100"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    checks = await checksNow();
  }
  expect(checks.map((p) => [p.kind, p.status, (p.amountRefunded as Json).amount])).toEqual([
    ["verification", "succeeded", "100"],
  ]);

  await post(`/v1/customers/${customer.id}/erase`, {}, 200);
  expect(await get(`/v1/customers/${customer.id}`)).toMatchObject({ email: null });
}
