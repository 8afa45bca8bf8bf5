import { randomUUID } from "node:crypto";
import { generateWebhookSecret } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleWebhookEndpoint } from "./fixtures.js";
import {
  attemptOf,
  claimOf,
  eventOf,
  type StorageContractOptions,
  type StorageFactory,
  savedProject,
  serializedStorage,
  unwrap,
  writeEvents,
} from "./storage-contract-support.js";

const AT = Date.parse("2026-02-01T10:00:00.123Z");
const DAY_MS = 24 * 60 * 60 * 1000;

/** Webhook endpoints as the API manages them (API.md 12): event types, description, a rotated secret. */
export function describeWebhookEndpointContract(
  factory: StorageFactory,
  options: StorageContractOptions,
): void {
  describe("webhook endpoints through the API", () => {
    it("keeps an endpoint's event types, description and previous secret, both secrets encrypted at rest", async () => {
      const storage = await factory();
      const [project, other] = [await savedProject(storage), await savedProject(storage)];
      const endpoint = sampleWebhookEndpoint(project.id, {
        previousSecret: generateWebhookSecret(),
        previousSecretExpiresAt: new Date(AT + DAY_MS),
        eventTypes: ["payment.canceled", "invoice.paid"],
        description: 'Заказы ☕ <&> "CRM"',
      });
      await unwrap(storage.saveWebhookEndpoint(endpoint));
      expect(await unwrap(storage.findWebhookEndpoint(project.id, endpoint.id))).toEqual(endpoint);
      expect(await unwrap(storage.listWebhookEndpoints(project.id))).toEqual([endpoint]);
      expect(await unwrap(storage.findWebhookEndpoint(other.id, endpoint.id))).toBeNull();
      expect(await unwrap(storage.findWebhookEndpoint(project.id, randomUUID()))).toBeNull();
      expect(await unwrap(storage.findWebhookEndpoint(project.id, "not-a-uuid"))).toBeNull();
      expect(await unwrap(storage.findWebhookEndpoint("not-a-uuid", endpoint.id))).toBeNull();
      if (options.encryptsMethodTokens) {
        const persisted = await serializedStorage(storage);
        for (const secret of [endpoint.secret, endpoint.previousSecret ?? ""])
          expect(persisted).not.toContain(secret.slice("whsec_".length));
      }
      // The rotation's 24 h over, the types and the description dropped.
      const cleared = {
        ...endpoint,
        previousSecret: null,
        previousSecretExpiresAt: null,
        eventTypes: null,
        description: null,
      };
      await unwrap(storage.saveWebhookEndpoint(cleared));
      expect(await unwrap(storage.findWebhookEndpoint(project.id, endpoint.id))).toEqual(cleared);
    });

    it("hands the dispatcher both secrets, and keeps its last success through the endpoint's saves", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const endpoint = sampleWebhookEndpoint(project.id, {
        previousSecret: generateWebhookSecret(),
        previousSecretExpiresAt: new Date(AT + DAY_MS),
        eventTypes: ["payment.canceled"],
      });
      await unwrap(storage.saveWebhookEndpoint(endpoint));
      const event = eventOf(project.id, "payment.canceled", AT);
      await writeEvents(storage, project.id, [event]);
      const [claimed] = await claimOf(storage, [event], AT);
      expect(claimed?.endpoint).toEqual(endpoint);
      await unwrap(storage.recordDeliveryAttempt(attemptOf(claimed, "delivered", AT + 5)));
      const moved = { ...endpoint, url: "https://merchant.example/moved", lastSuccessAt: null };
      await unwrap(storage.saveWebhookEndpoint(moved));
      expect(await unwrap(storage.findWebhookEndpoint(project.id, endpoint.id))).toEqual({
        ...moved,
        lastSuccessAt: new Date(AT + 5),
      });
    });

    it("fans a new event out only to the enabled endpoints that take its type (null: every type)", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const every = sampleWebhookEndpoint(project.id);
      const paid = sampleWebhookEndpoint(project.id, { eventTypes: ["invoice.paid"] });
      const created = sampleWebhookEndpoint(project.id, {
        eventTypes: ["subscription.created", "refund.succeeded"],
      });
      const none = sampleWebhookEndpoint(project.id, { eventTypes: [] });
      const disabled = sampleWebhookEndpoint(project.id, { enabled: false, eventTypes: ["invoice.paid"] });
      for (const endpoint of [every, paid, created, none, disabled])
        await unwrap(storage.saveWebhookEndpoint(endpoint));
      const events = (["invoice.paid", "subscription.created", "payment.canceled"] as const).map((type) =>
        eventOf(project.id, type, AT),
      );
      await writeEvents(storage, project.id, events);
      const targets = (await unwrap(storage.listEventDeliveries(project.id))).map((e) => [
        e.event.type,
        e.deliveries.map((d) => d.endpointId).sort(),
      ]);
      expect(targets).toEqual([
        ["invoice.paid", [every.id, paid.id].sort()],
        ["subscription.created", [every.id, created.id].sort()],
        ["payment.canceled", [every.id]],
      ]);
    });
  });
}
