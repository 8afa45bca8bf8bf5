import { randomUUID } from "node:crypto";
import {
  type CustomerRecord,
  createUuidV7Generator,
  customerEvent,
  type InspectableStorage,
} from "@kopek/core";
import { describe, expect, it } from "vitest";
import {
  sampleInvoice,
  samplePayment,
  sampleRefund,
  sampleSubscription,
  sampleWebhookEndpoint,
} from "./fixtures.js";
import {
  addLiveKey,
  completionOf,
  newClaim,
  type StorageFactory,
  savedProject,
  serializedStorage,
  storeResource,
  unwrap,
} from "./storage-contract-support.js";

const ids = createUuidV7Generator();
const AT = new Date("2026-03-01T10:00:00.123Z");

/**
 * A project's everything but money: two keys (one revoked), a webhook endpoint, a customer (whose
 * event is delivered to it) and an idempotency record. Answers what to look for afterwards.
 */
async function everythingButMoney(storage: InspectableStorage, projectId: string) {
  const keys = [await addLiveKey(storage, projectId), await addLiveKey(storage, projectId)];
  await unwrap(storage.revokeApiKey(keys[1]?.sha256 ?? "", AT));
  const endpoint = sampleWebhookEndpoint(projectId);
  await unwrap(storage.saveWebhookEndpoint(endpoint));
  const customer: CustomerRecord = {
    id: ids.newId(),
    projectId,
    email: `payer-${randomUUID()}@example.com`,
    phone: null,
    name: "Иван Петров",
    externalId: `crm-${randomUUID()}`,
    metadata: {},
    createdAt: AT,
    erasedAt: null,
    version: 1,
  };
  await unwrap(storage.saveCustomer(customer, [customerEvent("customer.created", customer, AT, ids)]));
  const claim = newClaim(projectId, Date.now());
  await unwrap(storage.claimIdempotencyKey(claim));
  await unwrap(storage.completeIdempotencyKey(completionOf(claim, null)));
  return { keys, endpoint, customer, claim };
}

/** `kopek projects delete` (API.md 11.1): all or nothing, and never a money record. */
export function describeProjectDeletionContract(factory: StorageFactory): void {
  describe("deleting a project", () => {
    it("deletes a project without money records with everything it has, and nothing of another", async () => {
      const storage = await factory();
      const [project, other] = [await savedProject(storage), await savedProject(storage)];
      const gone = await everythingButMoney(storage, project.id);
      const kept = await everythingButMoney(storage, other.id);
      expect(await unwrap(storage.deleteProject(project.id))).toEqual({
        kind: "deleted",
        removed: {
          apiKeys: 2,
          customers: 1,
          events: 1,
          webhookEndpoints: 1,
          webhookDeliveries: 1,
          idempotencyRecords: 1,
        },
      });
      expect(await unwrap(storage.findProject(project.id))).toBeNull();
      expect(await unwrap(storage.listApiKeys(project.id))).toEqual([]);
      expect(await unwrap(storage.findProjectByKeyHash(gone.keys[0]?.sha256 ?? ""))).toBeNull();
      // No stored row names it, or its endpoint (a delivery may name only that).
      const rows = await serializedStorage(storage);
      expect(rows).not.toContain(project.id);
      expect(rows).not.toContain(gone.endpoint.id);

      expect(await unwrap(storage.findProject(other.id))).toEqual(other);
      expect(await unwrap(storage.listApiKeys(other.id))).toHaveLength(2);
      expect(await unwrap(storage.findProjectByKeyHash(kept.keys[0]?.sha256 ?? ""))).toMatchObject({
        keyId: kept.keys[0]?.id,
      });
      expect(await unwrap(storage.listWebhookEndpoints(other.id))).toHaveLength(1);
      expect(await unwrap(storage.findCustomer(other.id, kept.customer.id))).toEqual(kept.customer);
      const events = await unwrap(storage.listEventDeliveries(other.id));
      expect(events.map((e) => e.deliveries.length)).toEqual([1]);
      const lookup = { projectId: other.id, key: kept.claim.key, now: new Date(), apiKeyId: null };
      expect(await unwrap(storage.findIdempotencyRecord(lookup))).toMatchObject({ kind: "existing" });

      expect(await unwrap(storage.deleteProject(project.id))).toEqual({ kind: "not_found" });
      expect(await unwrap(storage.deleteProject(randomUUID()))).toEqual({ kind: "not_found" });
      expect(await unwrap(storage.deleteProject("not-a-uuid"))).toEqual({ kind: "not_found" });
    });

    it("deletes nothing of a project with money records, and counts them by kind", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      await everythingButMoney(storage, project.id);
      const invoice = sampleInvoice(project.id);
      await storeResource(storage, project.id, { kind: "invoice", invoice });
      const subscription = sampleSubscription(project.id);
      await storeResource(storage, project.id, { kind: "subscription", subscription });
      const payment = samplePayment(project.id, { invoiceId: invoice.id });
      await unwrap(storage.savePayment(payment, []));
      await unwrap(storage.savePayment(samplePayment(project.id, { invoiceId: invoice.id }), []));
      await unwrap(storage.reserveRefund(sampleRefund(payment), null, []));
      const before = await serializedStorage(storage);
      expect(await unwrap(storage.deleteProject(project.id))).toEqual({
        kind: "has_money",
        money: { invoices: 1, subscriptions: 1, payments: 2, refunds: 1 },
      });
      expect(await serializedStorage(storage)).toBe(before);
    });

    it("marks a project deleted once: it stays, takes no new key, and no save unmarks it", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const key = await addLiveKey(storage, project.id);
      expect(await unwrap(storage.markProjectDeleted(project.id, AT))).toEqual(AT);
      expect(await unwrap(storage.markProjectDeleted(project.id, new Date()))).toEqual(AT);
      const marked = { ...project, deletedAt: AT };
      expect(await unwrap(storage.findProject(project.id))).toEqual(marked);
      expect((await unwrap(storage.listProjects())).find((p) => p.id === project.id)).toEqual(marked);
      // Marking revokes nothing itself: the operator's command revokes every key next.
      expect(await unwrap(storage.findProjectByKeyHash(key.sha256))).toEqual({
        project: marked,
        keyId: key.id,
      });

      const newKey = { ...key, id: randomUUID(), sha256: randomUUID().replaceAll("-", "").repeat(2) };
      expect(await unwrap(storage.addApiKey(newKey))).toBe(false);
      expect(await unwrap(storage.listApiKeys(project.id))).toEqual([key]);
      expect(await unwrap(storage.findProjectByKeyHash(newKey.sha256))).toBeNull();

      await unwrap(storage.saveProject({ ...project, name: "renamed" }));
      expect(await unwrap(storage.findProject(project.id))).toEqual({ ...marked, name: "renamed" });

      expect(await unwrap(storage.markProjectDeleted(randomUUID(), AT))).toBeNull();
      expect(await unwrap(storage.markProjectDeleted("not-a-uuid", AT))).toBeNull();
      const live = await savedProject(storage);
      expect(await unwrap(storage.addApiKey({ ...newKey, projectId: live.id }))).toBe(true);
      expect(await unwrap(storage.findProject(live.id))).toEqual(live);
    });
  });
}
