import type { NotificationSubject } from "@kopek/core";
import { ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const DAY_MS = 86_400_000;

/**
 * The provider as YooKassa is: it keeps Kopek's payment id with each payment it makes (its metadata),
 * says so in `getPayment`, and a notification carries both ids. `owners` maps the provider's payment
 * ids to the Kopek ids the provider was given.
 */
function keepingKopekIds(h: KopekHarness, owners: Map<string, string>) {
  const real = { getPayment: h.provider.getPayment.bind(h.provider) };
  Object.assign(h.provider, {
    getPayment: (providerPaymentId: string) =>
      real
        .getPayment(providerPaymentId)
        .map((payment) => ({ ...payment, kopekPaymentId: owners.get(providerPaymentId) ?? null })),
    readNotification: ({ body }: { body: string }) => ok(JSON.parse(body) as NotificationSubject),
  });
  return (subject: NotificationSubject, projectId = h.project.id) =>
    h.kopek.providerNotification({
      projectId,
      providerKind: h.project.provider.kind,
      notification: { headers: {}, body: JSON.stringify(subject) },
    });
}

/** A renewal whose charge the provider made while its answer never reached Kopek: the Payment, pending without a provider id. */
async function renewalWithLostAnswer(h: KopekHarness) {
  const subscriptionId = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
  h.clock.advance(28 * DAY_MS);
  h.injectChargeFaults("charge-then-outage");
  expect(await h.worker().runOnce()).toMatchObject({ unavailable: 1 });
  const payments = json(await h.get("/v1/payments", { subscriptionId, status: "pending" })).data as {
    id: string;
    providerPaymentId: string | null;
  }[];
  expect(payments).toHaveLength(1);
  const [payment] = payments;
  expect(payment?.providerPaymentId).toBeNull();
  return { subscriptionId, paymentId: payment?.id ?? "", chargeId: h.provider.chargeIds().at(-1) ?? "" };
}

/**
 * API.md 10.4: a notification can come before Kopek recorded the provider's id of a charge (the
 * answer is on its way, or was lost). Found by Kopek's own id the provider carried back, it is
 * settled at once, but only on the provider's answer naming that Payment.
 */
export function registerEarlyNotificationTests(options: KopekContractOptions): void {
  describe("a notification before the charge's answer is recorded", () => {
    it("finds the Payment by Kopek's id, settles it at once, and records the provider's id", async () => {
      const h = await createHarness(options);
      const { subscriptionId, paymentId, chargeId } = await renewalWithLostAnswer(h);
      const notify = keepingKopekIds(h, new Map([[chargeId, paymentId]]));
      expect((await notify({ providerPaymentId: chargeId, kopekPaymentId: paymentId })).isOk()).toBe(true);
      expect(json(await h.get(`/v1/payments/${paymentId}`))).toMatchObject({
        status: "succeeded",
        providerPaymentId: chargeId,
        cycle: 2,
      });
      expect(json(await h.get(`/v1/subscriptions/${subscriptionId}`))).toMatchObject({ cyclesStarted: 2 });
      // The worker's later pass charges nothing more: the cycle is paid.
      h.clock.advance(5 * 60_000);
      await h.worker().runOnce();
      expect(h.provider.chargesMade()).toBe(2);
    });

    it("refuses (not_found, nothing changed) when the provider's answer does not name that Payment, or another project's", async () => {
      const h = await createHarness(options);
      const { paymentId, chargeId } = await renewalWithLostAnswer(h);
      // The provider says its payment was made for another Kopek payment (a forged pairing), or says nothing.
      for (const owners of [new Map([[chargeId, crypto.randomUUID()]]), new Map<string, string>()]) {
        const notify = keepingKopekIds(h, owners);
        const refused = await notify({ providerPaymentId: chargeId, kopekPaymentId: paymentId });
        expect(refused._unsafeUnwrapErr().code).toBe("not_found");
      }
      // Kopek's id is looked up in the notification URL's project only.
      const other = await createHarness({ ...options, createStorage: async () => h.storage });
      const notifyOther = keepingKopekIds(other, new Map([[chargeId, paymentId]]));
      const crossed = await notifyOther({ providerPaymentId: chargeId, kopekPaymentId: paymentId });
      expect(crossed._unsafeUnwrapErr().code).toBe("not_found");
      expect(json(await h.get(`/v1/payments/${paymentId}`))).toMatchObject({
        status: "pending",
        providerPaymentId: null,
      });
    });
  });
}
