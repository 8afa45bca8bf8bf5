import { randomUUID } from "node:crypto";
import type { IdempotencyClaim, InspectableStorage } from "@kopek/core";
import { sampleInvoice, sampleProject, sampleSubscription } from "@kopek/testing";
import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "./index.js";

const projectId = sampleProject().id;

function claimAt(now: number, ttlMs: number, overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim {
  return {
    projectId,
    key: randomUUID(),
    fingerprint: "a".repeat(64),
    recordId: randomUUID(),
    leaseToken: randomUUID(),
    now: new Date(now),
    leaseExpiresAt: new Date(now + ttlMs),
    expiresAt: new Date(now + ttlMs),
    apiKeyId: null,
    ...overrides,
  };
}

async function recordCount(storage: InspectableStorage): Promise<number> {
  return (await storage.inspect()).idempotency_records?.length ?? Number.NaN;
}

describe("memory storage keeps idempotency records bounded", () => {
  it("purges expired records on the way while claims keep coming", async () => {
    const storage = createMemoryStorage();
    const start = Date.now();
    let peak = 0;
    for (let i = 0; i < 100_000; i += 1) {
      await storage.claimIdempotencyKey(claimAt(start + i, 1));
      if (i % 5_000 === 0) peak = Math.max(peak, await recordCount(storage));
    }
    expect(peak).toBeLessThan(5);
    expect(await recordCount(storage)).toBeLessThan(5);
  });

  it("drains a burst of expired records within a bounded number of later claims", async () => {
    const storage = createMemoryStorage({ maxPurgeBatch: 4 });
    const start = Date.now();
    for (let i = 0; i < 10_000; i += 1) await storage.claimIdempotencyKey(claimAt(start, 1));
    expect(await recordCount(storage)).toBe(10_000);
    for (let i = 1; i <= 5_000; i += 1) await storage.claimIdempotencyKey(claimAt(start + i, 1));
    expect(await recordCount(storage)).toBeLessThan(5);
  });

  it("leaves purging to purgeExpiredIdempotencyKeys when maxPurgeBatch is 0", async () => {
    const storage = createMemoryStorage({ maxPurgeBatch: 0 });
    const start = Date.now();
    for (let i = 0; i < 10; i += 1) await storage.claimIdempotencyKey(claimAt(start + i, 1));
    expect(await recordCount(storage)).toBe(10);
    expect((await storage.purgeExpiredIdempotencyKeys(new Date(start + 100), 100))._unsafeUnwrap()).toBe(10);
    expect(await recordCount(storage)).toBe(0);
  });

  it("purges an expired record queued behind a longer-lived one", async () => {
    const storage = createMemoryStorage();
    const start = Date.now();
    await storage.claimIdempotencyKey(claimAt(start, 60_000));
    const short = claimAt(start, 1);
    await storage.claimIdempotencyKey(short);
    expect((await storage.purgeExpiredIdempotencyKeys(new Date(start + 1_000), 10))._unsafeUnwrap()).toBe(1);
    const [left] = (await storage.inspect()).idempotency_records ?? [];
    expect(left?.key).not.toBe(short.key);
    expect(await recordCount(storage)).toBe(1);
  });
});

describe("memory storage keeps its state to itself", () => {
  it("is not changed by callers mutating what they stored or were given", async () => {
    const storage = createMemoryStorage();
    const claim = claimAt(Date.now(), 60_000);
    const subscription = sampleSubscription(projectId);
    const response = { status: 201, headers: { location: "/v1/subscriptions/1" }, body: '{"id":"1"}' };
    await storage.claimIdempotencyKey(claim);
    const { key, leaseToken, now } = claim;
    const resource = { kind: "subscription" as const, subscription };
    await storage.completeIdempotencyKey({
      projectId,
      key,
      leaseToken,
      now,
      response,
      resource,
      events: [],
      payments: [],
    });
    response.headers.location = "/elsewhere";
    (subscription.metadata as Record<string, string>).plan = "free";
    subscription.startedAt.setTime(0);
    const found = (await storage.findSubscription(projectId, subscription.id))._unsafeUnwrap();
    expect(found?.metadata.plan).toBe("pro");
    expect(found?.startedAt.getTime()).not.toBe(0);
    found?.nextChargeAt.setTime(0);
    const again = (await storage.findSubscription(projectId, subscription.id))._unsafeUnwrap();
    expect(again?.nextChargeAt.getTime()).not.toBe(0);
    const replayHeaders = async () => {
      const replay = (
        await storage.claimIdempotencyKey({ ...claim, leaseToken: randomUUID() })
      )._unsafeUnwrap();
      if (replay.kind !== "existing" || replay.record.state !== "completed")
        throw new Error("expected a replay");
      return replay.record.response.headers as Record<string, string>;
    };
    const first = await replayHeaders();
    expect(first).toEqual({ location: "/v1/subscriptions/1" });
    first.location = "/changed";
    expect(await replayHeaders()).toEqual({ location: "/v1/subscriptions/1" });
  });
});

describe("memory storage keeps resources bounded", () => {
  it("drops the oldest invoices past maxResources and keeps the newest", async () => {
    const storage = createMemoryStorage({ maxResources: 3 });
    const project = sampleProject();
    await storage.saveProject(project);
    const invoices = Array.from({ length: 5 }, () => sampleInvoice(project.id));
    for (const [i, invoice] of invoices.entries()) {
      const claim = {
        projectId: project.id,
        key: `k${i}`,
        fingerprint: "f",
        recordId: invoice.id,
        leaseToken: `t${i}`,
      };
      const now = new Date();
      const times = {
        now,
        leaseExpiresAt: new Date(now.getTime() + 1000),
        expiresAt: new Date(now.getTime() + 60_000),
        apiKeyId: null,
      };
      (await storage.claimIdempotencyKey({ ...claim, ...times }))._unsafeUnwrap();
      const response = { status: 201, headers: {}, body: "{}" };
      const completion = {
        projectId: project.id,
        key: `k${i}`,
        leaseToken: `t${i}`,
        response,
        events: [],
        payments: [],
        now,
      };
      (
        await storage.completeIdempotencyKey({ ...completion, resource: { kind: "invoice", invoice } })
      )._unsafeUnwrap();
    }
    const found = await Promise.all(
      invoices.map(async (i) => (await storage.findInvoice(project.id, i.id))._unsafeUnwrap()),
    );
    expect(found.map((i) => i?.id ?? null)).toEqual([
      null,
      null,
      invoices[2]?.id,
      invoices[3]?.id,
      invoices[4]?.id,
    ]);
    expect((await storage.inspect()).invoices).toHaveLength(3);
  });
});
