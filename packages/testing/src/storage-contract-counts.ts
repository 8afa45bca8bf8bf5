import { randomUUID } from "node:crypto";
import { createUuidV7Generator, type DomainEvent, type ResourceCounts } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, samplePayment, sampleSubscription, sampleWebhookEndpoint } from "./fixtures.js";
import { type StorageFactory, savedProject, storeResource, unwrap } from "./storage-contract-support.js";

const ids = createUuidV7Generator();
// Older than any other test's event, so the oldest pending one is this test's.
const LONG_AGO = new Date("2000-01-01T00:00:00.000Z");

const statusCount = (counts: readonly { status: string; count: number }[], status: string) =>
  counts.filter((c) => c.status === status).reduce((n, c) => n + c.count, 0);

/** The operator's figures (metrics): resources by status across projects, and the outbox's backlog. */
export function describeCountContract(factory: StorageFactory): void {
  describe("counts for metrics", () => {
    it("counts payments by status and provider, invoices and subscriptions by status, pending deliveries", async () => {
      const storage = await factory();
      // Other tests may share this storage: only what this one adds is asserted.
      const before = await unwrap(storage.countResources());
      const [one, two] = [await savedProject(storage), await savedProject(storage)];
      await unwrap(storage.saveWebhookEndpoint(sampleWebhookEndpoint(one.id, { createdAt: LONG_AGO })));
      const provider = `p${randomUUID().slice(0, 8)}`;
      const pending = { status: "pending" as const, succeededAt: null, nextCheckAt: new Date(), provider };
      const event: DomainEvent = {
        id: ids.newId(),
        projectId: one.id,
        type: "invoice.paid",
        createdAt: LONG_AGO,
        data: { id: randomUUID() },
      };
      await unwrap(storage.savePayment(samplePayment(one.id, { provider }), [event]));
      await unwrap(storage.savePayment(samplePayment(two.id, pending), []));
      await unwrap(storage.savePayment(samplePayment(one.id, pending), []));
      await storeResource(storage, one.id, { kind: "invoice", invoice: sampleInvoice(one.id) });
      await storeResource(storage, two.id, { kind: "invoice", invoice: sampleInvoice(two.id) });
      await storeResource(storage, two.id, {
        kind: "subscription",
        subscription: sampleSubscription(two.id, { status: "past_due" }),
      });

      const after: ResourceCounts = await unwrap(storage.countResources());
      const ours = after.payments.filter((p) => p.provider === provider);
      expect(
        ours.map(({ status, count }) => ({ status, count })).sort((a, b) => (a.status < b.status ? -1 : 1)),
      ).toEqual([
        { status: "pending", count: 2 },
        { status: "succeeded", count: 1 },
      ]);
      const invoiceStatus = sampleInvoice(one.id).status;
      expect(statusCount(after.invoices, invoiceStatus) - statusCount(before.invoices, invoiceStatus)).toBe(
        2,
      );
      expect(
        statusCount(after.subscriptions, "past_due") - statusCount(before.subscriptions, "past_due"),
      ).toBe(1);
      for (const counts of [after.payments, after.invoices, after.subscriptions])
        for (const c of counts) expect(c.count).toBeGreaterThan(0);
      expect(after.pendingDeliveries - before.pendingDeliveries).toBe(1);
      expect(after.oldestPendingEventAt).toEqual(LONG_AGO);
    });
  });
}
