import { deleteProjectAsOperator, type Project } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { reconcilerOf } from "./harness-reads.js";
import { receiptBody } from "./harness-requests.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const EMAIL = "deleted.shop.payer@example.com";
const PHONE = "+79990001122";
const NAME = "Покупатель Удалённого Магазина";

/**
 * A project with a customer, an active subscription and an invoice of that customer (both with the
 * customer's receipt contacts), the invoice's payment pending at the provider.
 */
async function shopWithMoney(h: KopekHarness) {
  const customer = json(await h.call("/v1/customers", { email: EMAIL, phone: PHONE, name: NAME }));
  const receipt = { ...receiptBody(), customer: { email: EMAIL, phone: PHONE } };
  const customerId = customer.id as string;
  const subscription = json(
    await h.call("/v1/subscriptions", { ...subscriptionBody(), customerId, receipt }),
  );
  const invoice = json(await h.call("/v1/invoices", { ...invoiceBody(), customerId, receipt }));
  const invoiceId = invoice.id as string;
  const started = (
    await h.kopek.startPayment({ projectId: h.project.id, invoiceId, method: "card" })
  )._unsafeUnwrap();
  if (started.kind !== "confirm") throw new Error("the invoice is not payable");
  return { customerId, subscriptionId: subscription.id as string, invoiceId, pending: started.payment };
}

const deleteAsOperator = (h: KopekHarness, force: boolean) =>
  deleteProjectAsOperator(
    { storage: h.storage, providerFor: () => h.provider, clock: h.clock },
    h.project.id,
    {
      force,
    },
  );

/** `kopek projects delete` (API.md 11.1) through core, as every embedding gets it. */
export function registerProjectDeletionTests(options: KopekContractOptions): void {
  describe("deleting a project", () => {
    it("refuses while money records exist; --force keeps them, stops keys and renewals, erases every customer; pending money still settles", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const shop = await shopWithMoney(h);
      const money = { invoices: 1, subscriptions: 1, payments: 2, refunds: 0 };
      const before = JSON.stringify(await h.storage.inspect());
      expect((await deleteAsOperator(h, false))._unsafeUnwrap()).toEqual({
        kind: "refused",
        project: h.project,
        money,
      });
      expect(JSON.stringify(await h.storage.inspect())).toBe(before);

      const forced = (await deleteAsOperator(h, true))._unsafeUnwrap();
      const deletedAt = h.clock.now();
      expect(forced).toEqual({
        kind: "erased",
        project: h.project,
        money,
        deletedAt,
        erased: {
          apiKeysRevoked: 1,
          webhookEndpointsRemoved: 0,
          subscriptionsCanceled: 1,
          customersErased: 1,
        },
      });
      const marked: Project = { ...h.project, deletedAt };
      expect((await h.storage.findProject(h.project.id))._unsafeUnwrap()).toEqual(marked);
      // The API refuses its key; no new key is taken.
      expect((await h.call("/v1/invoices", invoiceBody())).status).toBe(401);
      const key = { id: crypto.randomUUID(), projectId: h.project.id, sha256: "a".repeat(64) };
      const added = await h.storage.addApiKey({ ...key, createdAt: deletedAt, revokedAt: null });
      expect(added._unsafeUnwrap()).toBe(false);

      // Personal data erased as POST /v1/customers/{id}/erase erases it, receipt contacts too.
      const dump = JSON.stringify(await h.storage.inspect());
      for (const personal of [EMAIL, PHONE, NAME]) expect(dump).not.toContain(personal);
      const customer = (await h.storage.findCustomer(h.project.id, shop.customerId))._unsafeUnwrap();
      expect(customer?.erasedAt).toEqual(deletedAt);
      const subscription = (
        await h.storage.findSubscription(h.project.id, shop.subscriptionId)
      )._unsafeUnwrap();
      expect(subscription).toMatchObject({
        status: "canceled",
        cancelReason: "requested",
        canceledAt: deletedAt,
      });
      expect(subscription?.receipt?.customer).toMatchObject({ email: "erased", phone: "erased" });
      const invoice = (await h.storage.findInvoice(h.project.id, shop.invoiceId))._unsafeUnwrap();
      expect(invoice?.receipt?.customer).toMatchObject({ email: "erased", phone: "erased" });

      // No renewal is charged; the payer's money at the provider is still recorded when it moves.
      const charges = h.provider.chargesMade();
      h.clock.advance(40 * DAY_MS);
      expect(await h.worker().runOnce()).toMatchObject({ claimed: 0 });
      expect(h.provider.chargesMade()).toBe(charges);
      h.provider.confirm(shop.pending.providerPaymentId ?? "", "succeed");
      expect(await reconcilerOf(h).runOnce()).toMatchObject({ settled: 1 });
      const paid = (await h.storage.findPayment(h.project.id, shop.pending.id))._unsafeUnwrap();
      expect(paid?.status).toBe("succeeded");
      expect((await h.storage.findInvoice(h.project.id, shop.invoiceId))._unsafeUnwrap()?.status).toBe(
        "paid",
      );

      // A second run changes nothing, and says so by its counts and the first time.
      const again = (await deleteAsOperator(h, true))._unsafeUnwrap();
      expect(again).toMatchObject({
        kind: "erased",
        project: marked,
        deletedAt,
        erased: {
          apiKeysRevoked: 0,
          webhookEndpointsRemoved: 0,
          subscriptionsCanceled: 0,
          customersErased: 0,
        },
      });
    });

    it("deletes a project without money records, and answers not_found after", async () => {
      const h = await createHarness(options);
      await h.call("/v1/customers", { email: EMAIL });
      const deleted = (await deleteAsOperator(h, false))._unsafeUnwrap();
      expect(deleted).toMatchObject({
        kind: "deleted",
        project: h.project,
        removed: { apiKeys: 1, customers: 1 },
      });
      expect((await h.storage.findProject(h.project.id))._unsafeUnwrap()).toBeNull();
      expect((await deleteAsOperator(h, true))._unsafeUnwrapErr()).toEqual({ code: "not_found" });
    });
  });
}
