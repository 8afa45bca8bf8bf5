import { createUuidV7Generator, type InspectableStorage, type StoredResource } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, sampleProject, sampleSubscription } from "./fixtures.js";
import {
  completionOf,
  newClaim,
  type StorageFactory,
  unwrap,
  unwrapErr,
} from "./storage-contract-support.js";

const ids = createUuidV7Generator();
const MINUTE_MS = 60_000;

// Renewal claims look at every project; a random instant decades back keeps this test's due
// subscriptions apart from any other test's rows on a shared database.
const randomPast = () =>
  Date.UTC(1900 + Math.floor(Math.random() * 80), 0, 1) + Math.floor(Math.random() * 1e9);

async function saved(storage: InspectableStorage) {
  const project = sampleProject();
  await unwrap(storage.saveProject(project));
  return project;
}

function store(storage: InspectableStorage, projectId: string, resource: StoredResource) {
  const claim = newClaim(projectId, Date.now());
  return storage
    .claimIdempotencyKey(claim)
    .andThen(() => storage.completeIdempotencyKey(completionOf(claim, resource)));
}

function dueSubscription(
  projectId: string,
  at: number,
  overrides: Parameters<typeof sampleSubscription>[1] = {},
) {
  return sampleSubscription(projectId, { id: ids.newId(), nextAttemptAt: new Date(at), ...overrides });
}

export function describeLifecycleContract(factory: StorageFactory): void {
  describe("lists", () => {
    it("lists a project's subscriptions newest first, paged by id, and no other project's", async () => {
      const storage = await factory();
      const [a, b] = [await saved(storage), await saved(storage)];
      const subs = Array.from({ length: 5 }, () => sampleSubscription(a.id, { id: ids.newId() }));
      for (const subscription of subs)
        await unwrap(store(storage, a.id, { kind: "subscription", subscription }));
      await unwrap(
        store(storage, b.id, {
          kind: "subscription",
          subscription: sampleSubscription(b.id, { id: ids.newId() }),
        }),
      );
      const first = await unwrap(storage.listSubscriptions(a.id, { limit: 3, before: null }));
      expect(first.map((s) => s.id)).toEqual([subs[4]?.id, subs[3]?.id, subs[2]?.id]);
      const rest = await unwrap(storage.listSubscriptions(a.id, { limit: 3, before: subs[2]?.id ?? null }));
      expect(rest.map((s) => s.id)).toEqual([subs[1]?.id, subs[0]?.id]);
      expect(rest[0]).toEqual(subs[1]);
      expect(await unwrap(storage.listSubscriptions(b.id, { limit: 10, before: null }))).toHaveLength(1);
    });

    it("filters invoices by the status as read at now: unpaid past expiresAt is expired", async () => {
      const storage = await factory();
      const project = await saved(storage);
      const now = Date.parse("2026-06-01T00:00:00.000Z");
      const invoices = {
        open: sampleInvoice(project.id, { id: ids.newId(), expiresAt: new Date(now + MINUTE_MS) }),
        lapsed: sampleInvoice(project.id, { id: ids.newId(), expiresAt: new Date(now - MINUTE_MS) }),
        paid: sampleInvoice(project.id, {
          id: ids.newId(),
          status: "paid",
          paidAt: new Date(now - 1),
          method: "card",
        }),
        canceled: sampleInvoice(project.id, {
          id: ids.newId(),
          status: "canceled",
          canceledAt: new Date(now - 1),
        }),
      };
      for (const invoice of Object.values(invoices))
        await unwrap(store(storage, project.id, { kind: "invoice", invoice }));
      const page = (status: "created" | "expired" | "paid" | "canceled" | null) =>
        unwrap(
          storage.listInvoices(project.id, { limit: 10, before: null, status, now: new Date(now) }),
        ).then((rows) => rows.map((i) => i.id));
      expect(await page("created")).toEqual([invoices.open.id]);
      expect(await page("expired")).toEqual([invoices.lapsed.id]);
      expect(await page("paid")).toEqual([invoices.paid.id]);
      expect(await page(null)).toHaveLength(4);
    });
  });

  describe("version-checked writes", () => {
    it("replaces a resource only from the version it was read at, storing nothing on a conflict", async () => {
      const storage = await factory();
      const project = await saved(storage);
      const original = sampleSubscription(project.id);
      await unwrap(store(storage, project.id, { kind: "subscription", subscription: original }));
      const canceled = {
        ...original,
        status: "canceled" as const,
        canceledAt: new Date(),
        cancelReason: "requested" as const,
        version: 2,
      };
      await unwrap(store(storage, project.id, { kind: "subscription", subscription: canceled }));
      expect(await unwrap(storage.findSubscription(project.id, original.id))).toEqual(canceled);

      const stale = newClaim(project.id, Date.now());
      await unwrap(storage.claimIdempotencyKey(stale));
      const conflict = await unwrapErr(
        storage.completeIdempotencyKey(
          completionOf(stale, { kind: "subscription", subscription: { ...canceled, description: "stale" } }),
        ),
      );
      expect(conflict.code).toBe("conflict");
      const after = await unwrap(storage.claimIdempotencyKey({ ...stale, leaseToken: crypto.randomUUID() }));
      expect(after).toMatchObject({ kind: "existing", record: { state: "in_progress" } });
      expect((await unwrap(storage.findSubscription(project.id, original.id)))?.description).toBe(
        original.description,
      );
      expect(
        (await unwrapErr(store(storage, project.id, { kind: "subscription", subscription: original }))).code,
      ).toBe("conflict");
    });
    it("refuses a subscription whose declines and firstDeclinedAt disagree, writing nothing", async () => {
      const storage = await factory();
      const project = await saved(storage);
      const original = sampleSubscription(project.id);
      await unwrap(store(storage, project.id, { kind: "subscription", subscription: original }));
      for (const broken of [
        { ...original, declines: 1, firstDeclinedAt: null, version: 2 },
        { ...original, declines: 0, firstDeclinedAt: new Date(), version: 2 },
      ]) {
        expect((await unwrapErr(storage.saveSubscription(broken, [], []))).code).toBe("storage_failed");
        const stale = newClaim(project.id, Date.now());
        await unwrap(storage.claimIdempotencyKey(stale));
        const refused = await unwrapErr(
          storage.completeIdempotencyKey(completionOf(stale, { kind: "subscription", subscription: broken })),
        );
        expect(refused.code).toBe("storage_failed");
        expect(await unwrap(storage.findSubscription(project.id, original.id))).toEqual(original);
      }
      // A new one made broken is not stored either.
      const fresh = { ...sampleSubscription(project.id), declines: 2, firstDeclinedAt: null };
      expect(
        (await unwrapErr(store(storage, project.id, { kind: "subscription", subscription: fresh }))).code,
      ).toBe("storage_failed");
      expect(await unwrap(storage.findSubscription(project.id, fresh.id))).toBeNull();
    });
  });

  describe("renewal claims", () => {
    it("leases the due active and past-due subscriptions, earliest first, once until the lease ends", async () => {
      const storage = await factory();
      const project = await saved(storage);
      const t = randomPast();
      const late = dueSubscription(project.id, t - 2 * MINUTE_MS);
      const due = dueSubscription(project.id, t - MINUTE_MS, {
        status: "past_due",
        declines: 1,
        firstDeclinedAt: new Date(t - 2 * MINUTE_MS),
      });
      const notYet = dueSubscription(project.id, t + 2 * MINUTE_MS);
      const canceled = dueSubscription(project.id, t - MINUTE_MS, {
        status: "canceled",
        canceledAt: new Date(t),
        cancelReason: "requested",
      });
      for (const subscription of [late, due, notYet, canceled])
        await unwrap(store(storage, project.id, { kind: "subscription", subscription }));
      const claim = (at: number) =>
        unwrap(
          storage.claimDueSubscriptions({
            now: new Date(at),
            limit: 10,
            leaseToken: crypto.randomUUID(),
            leaseExpiresAt: new Date(at + MINUTE_MS),
          }),
        );
      const claimed = await claim(t);
      expect(claimed.map((s) => s.id)).toEqual([late.id, due.id]);
      expect(claimed.map((s) => s.version)).toEqual([2, 2]);
      expect(await claim(t + MINUTE_MS - 1)).toEqual([]);
      expect((await claim(t + MINUTE_MS)).map((s) => s.id)).toEqual([late.id, due.id]);
    });

    it("claims the earliest due across projects: one project's backlog does not take an earlier row's place", async () => {
      const storage = await factory();
      const [busy, small] = [await saved(storage), await saved(storage)];
      const t = randomPast();
      const backlog = Array.from({ length: 6 }, (_, i) => dueSubscription(busy.id, t - (10 - i) * MINUTE_MS));
      const early = dueSubscription(small.id, t - 8.5 * MINUTE_MS);
      for (const subscription of [...backlog, early])
        await unwrap(store(storage, subscription.projectId, { kind: "subscription", subscription }));
      const claimed = await unwrap(
        storage.claimDueSubscriptions({
          now: new Date(t),
          limit: 3,
          leaseToken: crypto.randomUUID(),
          leaseExpiresAt: new Date(t + MINUTE_MS),
        }),
      );
      // Due at t−10, t−9 and t−8.5 minutes: two of the busy project's and the small one's.
      expect(new Set(claimed.map((s) => s.id))).toEqual(new Set([backlog[0]?.id, backlog[1]?.id, early.id]));
    });

    it("saves a claimed subscription from its claimed version only, and frees its lease", async () => {
      const storage = await factory();
      const project = await saved(storage);
      const t = randomPast();
      await unwrap(
        store(storage, project.id, { kind: "subscription", subscription: dueSubscription(project.id, t) }),
      );
      const lease = {
        now: new Date(t),
        limit: 5,
        leaseToken: crypto.randomUUID(),
        leaseExpiresAt: new Date(t + MINUTE_MS),
      };
      const [claimed] = await unwrap(storage.claimDueSubscriptions(lease));
      if (claimed === undefined) throw new Error("nothing claimed");
      const renewed = { ...claimed, cyclesStarted: 2, version: claimed.version + 1 };
      await unwrap(storage.saveSubscription(renewed, [], []));
      expect((await unwrapErr(storage.saveSubscription(renewed, [], []))).code).toBe("conflict");
      expect(
        (await unwrapErr(storage.saveSubscription({ ...claimed, version: claimed.version }, [], []))).code,
      ).toBe("conflict");
      expect(await unwrap(storage.findSubscription(project.id, claimed.id))).toEqual(renewed);
      const again = await unwrap(
        storage.claimDueSubscriptions({ ...lease, leaseToken: crypto.randomUUID() }),
      );
      expect(again.map((s) => s.id)).toEqual([claimed.id]);
    });

    it("never gives one subscription to two parallel claims", async () => {
      const storage = await factory();
      const project = await saved(storage);
      const t = randomPast();
      const subs = Array.from({ length: 30 }, (_, i) => dueSubscription(project.id, t - i));
      for (const subscription of subs)
        await unwrap(store(storage, project.id, { kind: "subscription", subscription }));
      const lease = () => ({
        now: new Date(t),
        limit: 8,
        leaseToken: crypto.randomUUID(),
        leaseExpiresAt: new Date(t + MINUTE_MS),
      });
      const batches = await Promise.all(
        Array.from({ length: 6 }, () => unwrap(storage.claimDueSubscriptions(lease()))),
      );
      const claimed = batches.flat().map((s) => s.id);
      expect(claimed).toHaveLength(30);
      expect(new Set(claimed).size).toBe(30);
    });
  });
}
