import { randomUUID } from "node:crypto";
import {
  createUuidV7Generator,
  type DomainEvent,
  type InspectableStorage,
  type WebhookEndpoint,
} from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, sampleProject, sampleSubscription, sampleWebhookEndpoint } from "./fixtures.js";
import {
  completionOf,
  newClaim,
  type StorageContractOptions,
  type StorageFactory,
  serializedStorage,
  unwrap,
  unwrapErr,
} from "./storage-contract-support.js";

const ids = createUuidV7Generator();
const AT = new Date("2026-02-01T10:00:00.123Z");

async function projectWithEndpoints(storage: InspectableStorage, enabled: boolean[]) {
  const project = sampleProject();
  await unwrap(storage.saveProject(project));
  const endpoints: WebhookEndpoint[] = [];
  for (const on of enabled) {
    const endpoint = sampleWebhookEndpoint(project.id, {
      enabled: on,
      createdAt: AT,
      disabledAt: on ? null : AT,
    });
    await unwrap(storage.saveWebhookEndpoint(endpoint));
    endpoints.push(endpoint);
  }
  return { project, endpoints };
}

function event(projectId: string, type: DomainEvent["type"] = "invoice.paid"): DomainEvent {
  return { id: ids.newId(), projectId, type, createdAt: AT, data: { id: randomUUID(), note: "Привет" } };
}

const claimAt = (now: Date, limit = 10_000) => ({
  now,
  limit,
  leaseToken: randomUUID(),
  leaseExpiresAt: new Date(now.getTime() + 60_000),
});

/** The outbox: events written iff their resource write succeeds, fanned out, claimed by one dispatcher. */
export function describeOutboxContract(factory: StorageFactory, options: StorageContractOptions): void {
  describe("outbox and webhook deliveries", () => {
    it("stores a completion's events with its resource, one delivery per enabled endpoint", async () => {
      const storage = await factory();
      const { project, endpoints } = await projectWithEndpoints(storage, [true, false, true]);
      const subscription = sampleSubscription(project.id);
      const created = event(project.id, "subscription.created");
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const completion = {
        ...completionOf(claim, { kind: "subscription", subscription }),
        events: [created],
      };
      await unwrap(storage.completeIdempotencyKey(completion));
      const [stored, ...rest] = await unwrap(storage.listEventDeliveries(project.id));
      expect(rest).toEqual([]);
      expect(stored?.event).toEqual(created);
      const targets = stored?.deliveries.map((d) => d.endpointId).sort();
      expect(targets).toEqual([endpoints[0]?.id, endpoints[2]?.id].sort());
      expect(stored?.deliveries.every((d) => d.state === "pending" && d.attempts === 0)).toBe(true);
    });

    it("stores nothing of a write that conflicts", async () => {
      const storage = await factory();
      const { project } = await projectWithEndpoints(storage, [true]);
      const stale = sampleSubscription(project.id, { version: 2 });
      expect((await unwrapErr(storage.saveSubscription(stale, [event(project.id)], []))).code).toBe(
        "conflict",
      );
      const invoice = sampleInvoice(project.id, { version: 2 });
      expect((await unwrapErr(storage.saveInvoice(invoice, [event(project.id)], []))).code).toBe("conflict");
      expect(await unwrap(storage.listEventDeliveries(project.id))).toEqual([]);
    });

    it("saves an invoice version-checked with its events, and finds it by id alone", async () => {
      const storage = await factory();
      const { project } = await projectWithEndpoints(storage, [true]);
      const invoice = sampleInvoice(project.id, { expiresAt: new Date(AT.getTime() - 1) });
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, { kind: "invoice", invoice })));
      const lapsed = await unwrap(storage.listLapsedInvoices(AT, 10_000));
      expect(lapsed.map((i) => i.id)).toContain(invoice.id);
      const expired = { ...invoice, status: "expired" as const, version: 2 };
      const expiredEvent = event(project.id, "invoice.expired");
      await unwrap(storage.saveInvoice(expired, [expiredEvent], []));
      expect((await unwrapErr(storage.saveInvoice(expired, [event(project.id)], []))).code).toBe("conflict");
      expect(await unwrap(storage.findInvoiceById(invoice.id))).toEqual(expired);
      expect(await unwrap(storage.findInvoiceById(randomUUID()))).toBeNull();
      expect((await unwrap(storage.listLapsedInvoices(AT, 10_000))).map((i) => i.id)).not.toContain(
        invoice.id,
      );
      const events = await unwrap(storage.listEventDeliveries(project.id));
      expect(events.map((e) => e.event.id)).toEqual([expiredEvent.id]);
    });

    it("lists a created invoice once its expiry comes, and on every pass until it is saved expired", async () => {
      const storage = await factory();
      const { project } = await projectWithEndpoints(storage, []);
      // Expiries in 2001, before any other test's invoice: this test sees only its own.
      const at = (ms: number) => new Date(Date.UTC(2001, 0, 1) + ms);
      const first = sampleInvoice(project.id, { expiresAt: at(10) });
      const second = sampleInvoice(project.id, { expiresAt: at(20) });
      for (const invoice of [first, second]) {
        const claim = newClaim(project.id, Date.now());
        await unwrap(storage.claimIdempotencyKey(claim));
        await unwrap(storage.completeIdempotencyKey(completionOf(claim, { kind: "invoice", invoice })));
      }
      const lapsedIds = async (now: Date, limit: number) =>
        (await unwrap(storage.listLapsedInvoices(now, limit))).map((i) => i.id);
      expect(await lapsedIds(at(5), 10)).toEqual([]);
      expect(await lapsedIds(at(10), 10)).toEqual([first.id]);
      expect(await lapsedIds(at(25), 1)).toEqual([first.id]);
      // Listed but not yet saved as expired (a sweeper that stopped half-way): listed again.
      expect(await lapsedIds(at(25), 1)).toEqual([first.id]);
      await unwrap(storage.saveInvoice({ ...first, status: "expired", version: 2 }, [], []));
      expect(await lapsedIds(at(25), 10)).toEqual([second.id]);
    });

    it("leases each due delivery to one claimant; a lost lease records nothing", async () => {
      const storage = await factory();
      const { project } = await projectWithEndpoints(storage, [true]);
      const subscription = sampleSubscription(project.id);
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const events = Array.from({ length: 20 }, () => event(project.id));
      await unwrap(
        storage.completeIdempotencyKey({
          ...completionOf(claim, { kind: "subscription", subscription }),
          events,
        }),
      );
      const ours = new Set(events.map((e) => e.id));
      const claims = await Promise.all(
        Array.from({ length: options.concurrency ?? 10 }, () =>
          unwrap(storage.claimDueDeliveries(claimAt(AT, 3))),
        ),
      );
      const claimed = claims.flat().filter((d) => ours.has(d.event.id));
      expect(new Set(claimed.map((d) => d.event.id)).size).toBe(claimed.length);
      const rest = (await unwrap(storage.claimDueDeliveries(claimAt(AT)))).filter((d) =>
        ours.has(d.event.id),
      );
      expect(claimed.length + rest.length).toBe(20);
      const first = rest[0] ?? claimed[0];
      if (first === undefined) throw new Error("nothing claimed");
      expect(first.endpoint.secret.startsWith("whsec_")).toBe(true);
      const attempt = {
        id: ids.newId(),
        projectId: first.endpoint.projectId,
        eventId: first.event.id,
        endpointId: first.endpoint.id,
        leaseToken: randomUUID(),
        at: AT,
        outcome: "delivered" as const,
        nextAttemptAt: null,
        status: 200,
        error: null,
        durationMs: 87,
      };
      expect((await unwrapErr(storage.recordDeliveryAttempt(attempt))).code).toBe("lease_lost");
      await unwrap(storage.recordDeliveryAttempt({ ...attempt, leaseToken: first.leaseToken }));
      const later = new Date(AT.getTime() + 120_000);
      const again = (await unwrap(storage.claimDueDeliveries(claimAt(later)))).filter((d) =>
        ours.has(d.event.id),
      );
      expect(again.map((d) => d.event.id)).not.toContain(first.event.id);
      expect(again).toHaveLength(19);
      const [endpoint] = await unwrap(storage.listWebhookEndpoints(project.id));
      expect(endpoint?.lastSuccessAt).toEqual(AT);
    });

    it("claims nothing for a disabled endpoint, and never stores a secret in plain text", async () => {
      const storage = await factory();
      const { project, endpoints } = await projectWithEndpoints(storage, [true]);
      const [endpoint] = endpoints;
      if (endpoint === undefined) throw new Error("no endpoint");
      const subscription = sampleSubscription(project.id);
      const claim = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const events = [event(project.id)];
      const completion = { ...completionOf(claim, { kind: "subscription", subscription }), events };
      await unwrap(storage.completeIdempotencyKey(completion));
      await unwrap(storage.disableWebhookEndpoint(project.id, endpoint.id, AT, "kept failing"));
      const claimed = await unwrap(storage.claimDueDeliveries(claimAt(AT)));
      expect(claimed.filter((d) => d.event.id === events[0]?.id)).toEqual([]);
      const [disabled] = await unwrap(storage.listWebhookEndpoints(project.id));
      expect(disabled).toMatchObject({ enabled: false, disabledAt: AT, disabledReason: "kept failing" });
      if (options.encryptsMethodTokens)
        expect(await serializedStorage(storage)).not.toContain(endpoint.secret);
      expect(await unwrap(storage.removeWebhookEndpoint(project.id, endpoint.id))).toBe(true);
      expect(await unwrap(storage.listWebhookEndpoints(project.id))).toEqual([]);
    });
  });
}
