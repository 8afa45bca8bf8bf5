import { randomInt, randomUUID } from "node:crypto";
import type { StoredResource } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleSubscription } from "./fixtures.js";
import {
  addLiveKey,
  completedRecord,
  completionOf,
  LEASE_MS,
  newClaim,
  retryOf,
  rowsContaining,
  SECOND_MS,
  type StorageContractOptions,
  type StorageFactory,
  sampleResponse,
  unwrap,
  unwrapErr,
  withProject,
} from "./storage-contract-support.js";

function subscriptionIn(projectId: string): Extract<StoredResource, { kind: "subscription" }> {
  return { kind: "subscription", subscription: sampleSubscription(projectId) };
}

/** Idempotency records (API.md 3): claims, leases, expiry, atomic completion and concurrency. */
export function describeIdempotencyContract(factory: StorageFactory, options: StorageContractOptions): void {
  const parallel = options.concurrency ?? 50;

  describe("idempotency claims", () => {
    it("claims a new key, and reports it in progress to a second claim while the lease lives", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      expect(await unwrap(storage.claimIdempotencyKey(claim))).toEqual({
        kind: "claimed",
        recordId: claim.recordId,
        takenOver: false,
      });
      const second = retryOf(claim, claim.now.getTime() + SECOND_MS);
      expect(await unwrap(storage.claimIdempotencyKey(second))).toEqual({
        kind: "existing",
        record: {
          state: "in_progress",
          fingerprint: claim.fingerprint,
          leaseExpiresAt: claim.leaseExpiresAt,
        },
      });
    });

    it("replays the stored response of a completed key exactly, and the resource is findable", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      const resource = subscriptionIn(projectId);
      await unwrap(storage.claimIdempotencyKey(claim));
      const completion = completionOf(claim, resource);
      await unwrap(storage.completeIdempotencyKey(completion));
      const replay = await unwrap(
        storage.claimIdempotencyKey(retryOf(claim, claim.now.getTime() + SECOND_MS)),
      );
      expect(replay).toEqual({
        kind: "existing",
        record: completedRecord(claim.fingerprint, completion.response),
      });
      const found = await unwrap(storage.findSubscription(projectId, resource.subscription.id));
      expect(found).toEqual(resource.subscription);
    });

    it("stores a refusal without a resource", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const response = {
        status: 402,
        headers: { "content-type": "application/problem+json" },
        body: '{"code":"payment_declined","status":402}',
      };
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, null, response)));
      const replay = await unwrap(storage.claimIdempotencyKey(retryOf(claim, claim.now.getTime())));
      expect(replay).toEqual({
        kind: "existing",
        record: { state: "completed", fingerprint: claim.fingerprint, response },
      });
    });
  });

  describe("idempotency claims check the request's API key", () => {
    async function withKey(factory: StorageFactory) {
      const [storage, projectId] = await withProject(factory);
      return { storage, projectId, key: await addLiveKey(storage, projectId) };
    }

    it("claims with a live key of the project", async () => {
      const { storage, projectId, key } = await withKey(factory);
      const claim = newClaim(projectId, Date.now(), { apiKeyId: key.id });
      expect(await unwrap(storage.claimIdempotencyKey(claim))).toMatchObject({ kind: "claimed" });
    });

    it("writes nothing for a revoked key, an unknown key or another project's key, even on a key it would replay", async () => {
      const { storage, projectId, key } = await withKey(factory);
      const other = await withKey(() => Promise.resolve(storage));
      const completed = newClaim(projectId, Date.now(), { apiKeyId: key.id });
      await unwrap(storage.claimIdempotencyKey(completed));
      await unwrap(storage.completeIdempotencyKey(completionOf(completed, null)));
      const before = await storage.inspect();

      expect(await unwrap(storage.revokeApiKey(key.sha256, new Date()))).toBe(true);
      for (const apiKeyId of [key.id, randomUUID(), other.key.id]) {
        const fresh = newClaim(projectId, Date.now(), { apiKeyId });
        expect(await unwrap(storage.claimIdempotencyKey(fresh))).toEqual({ kind: "key_revoked" });
        const replay = retryOf(completed, Date.now(), { apiKeyId });
        expect(await unwrap(storage.claimIdempotencyKey(replay))).toEqual({ kind: "key_revoked" });
      }
      const after = await storage.inspect();
      expect(after.idempotency_records).toEqual(before.idempotency_records);
      // The other project's key still claims in its own project.
      const own = newClaim(other.projectId, Date.now(), { apiKeyId: other.key.id });
      expect(await unwrap(storage.claimIdempotencyKey(own))).toMatchObject({ kind: "claimed" });
    });
  });

  describe("idempotency leases", () => {
    it("lets the same request take over an expired lease, keeping the record id", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const retry = retryOf(claim, claim.leaseExpiresAt.getTime() + 1);
      expect(await unwrap(storage.claimIdempotencyKey(retry))).toEqual({
        kind: "claimed",
        recordId: claim.recordId,
        takenOver: true,
      });
    });

    it("never lets a different request take over an expired lease", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const other = retryOf(claim, claim.leaseExpiresAt.getTime() + 1, { fingerprint: "f".repeat(64) });
      expect(await unwrap(storage.claimIdempotencyKey(other))).toMatchObject({
        kind: "existing",
        record: { state: "in_progress", fingerprint: claim.fingerprint },
      });
    });

    it("refuses completion by a lease that was taken over, storing nothing", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const takeover = retryOf(claim, claim.leaseExpiresAt.getTime() + 1);
      await unwrap(storage.claimIdempotencyKey(takeover));
      const resource = subscriptionIn(projectId);
      const late = { ...completionOf(claim, resource), now: takeover.now };
      expect(await unwrapErr(storage.completeIdempotencyKey(late))).toMatchObject({ code: "lease_lost" });
      expect(await unwrap(storage.findSubscription(projectId, resource.subscription.id))).toBeNull();
      const probe = retryOf(claim, takeover.now.getTime() + SECOND_MS);
      expect(await unwrap(storage.claimIdempotencyKey(probe))).toMatchObject({
        kind: "existing",
        record: { state: "in_progress" },
      });
    });

    it("release lets an immediate retry take over; a wrong token releases nothing", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const at = claim.now.getTime() + SECOND_MS;
      const release = { projectId, key: claim.key, now: new Date(at) };
      await unwrap(storage.releaseIdempotencyKey({ ...release, leaseToken: randomUUID() }));
      expect(await unwrap(storage.claimIdempotencyKey(retryOf(claim, at)))).toMatchObject({
        kind: "existing",
      });
      await unwrap(storage.releaseIdempotencyKey({ ...release, leaseToken: claim.leaseToken }));
      expect(await unwrap(storage.claimIdempotencyKey(retryOf(claim, at)))).toEqual({
        kind: "claimed",
        recordId: claim.recordId,
        takenOver: true,
      });
    });
  });

  describe("idempotency expiry", () => {
    it("replaces an expired record, completed or not, with a fresh claim and a new record id", async () => {
      const [storage, projectId] = await withProject(factory);
      const completed = newClaim(projectId, Date.now());
      const pending = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(completed));
      await unwrap(storage.claimIdempotencyKey(pending));
      await unwrap(storage.completeIdempotencyKey(completionOf(completed, null)));
      for (const first of [completed, pending]) {
        const again = retryOf(first, first.expiresAt.getTime(), { fingerprint: "e".repeat(64) });
        expect(await unwrap(storage.claimIdempotencyKey(again))).toEqual({
          kind: "claimed",
          recordId: again.recordId,
          takenOver: false,
        });
      }
      const stale = { ...completionOf(pending, null), now: pending.expiresAt };
      expect(await unwrapErr(storage.completeIdempotencyKey(stale))).toMatchObject({ code: "lease_lost" });
    });

    it("purges expired records in batches of at most `limit`, leaving live ones to replay", async () => {
      const [storage, projectId] = await withProject(factory);
      // A random moment long past, so records left on a shared database by other runs stay out of the counts.
      const base = Date.UTC(1990, 0, 1) + randomInt(0, 2 ** 40);
      const expiring = Array.from({ length: 5 }, () =>
        newClaim(projectId, base, { expiresAt: new Date(base + 1) }),
      );
      const live = Array.from({ length: 2 }, () => newClaim(projectId, base));
      for (const claim of [...expiring, ...live]) {
        await unwrap(storage.claimIdempotencyKey(claim));
        await unwrap(storage.completeIdempotencyKey(completionOf(claim, null)));
      }
      const purgeAt = new Date(base + SECOND_MS);
      expect(await unwrap(storage.purgeExpiredIdempotencyKeys(purgeAt, 2))).toBe(2);
      let purged = 2;
      for (let round = 0, count = -1; count !== 0 && round < 100; round += 1) {
        count = await unwrap(storage.purgeExpiredIdempotencyKeys(purgeAt, 3));
        expect(count).toBeLessThanOrEqual(3);
        purged += count;
      }
      expect(purged).toBeGreaterThanOrEqual(expiring.length);
      for (const claim of expiring)
        expect(await rowsContaining(storage, "idempotency_records", claim.key)).toEqual([]);
      for (const claim of live) {
        const replay = await unwrap(storage.claimIdempotencyKey(retryOf(claim, base + 2 * SECOND_MS)));
        expect(replay).toMatchObject({ kind: "existing", record: { state: "completed" } });
      }
    });
  });

  describe("atomic completion", () => {
    it("persists the response and the resource together", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      const resource = subscriptionIn(projectId);
      const response = sampleResponse(resource.subscription.id);
      await unwrap(storage.claimIdempotencyKey(claim));
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, resource, response)));
      const marker = (JSON.parse(response.body) as { marker: string }).marker;
      expect(await rowsContaining(storage, "idempotency_records", marker)).toHaveLength(1);
      expect(await rowsContaining(storage, "subscriptions", resource.subscription.id)).toHaveLength(1);
    });

    it("persists neither when the lease was lost", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      await unwrap(storage.claimIdempotencyKey(retryOf(claim, claim.leaseExpiresAt.getTime() + 1)));
      const resource = subscriptionIn(projectId);
      const response = sampleResponse(resource.subscription.id);
      await unwrapErr(storage.completeIdempotencyKey(completionOf(claim, resource, response)));
      const marker = (JSON.parse(response.body) as { marker: string }).marker;
      expect(await rowsContaining(storage, "idempotency_records", marker)).toEqual([]);
      expect(await rowsContaining(storage, "subscriptions", resource.subscription.id)).toEqual([]);
    });
  });

  describe("idempotency under concurrency", () => {
    it(`lets exactly one of ${parallel} parallel claims of one key win`, async () => {
      const [storage, projectId] = await withProject(factory);
      const first = newClaim(projectId, Date.now());
      const claims = Array.from({ length: parallel }, () => retryOf(first, first.now.getTime()));
      const outcomes = await Promise.all(claims.map((claim) => unwrap(storage.claimIdempotencyKey(claim))));
      expect(outcomes.filter((outcome) => outcome.kind === "claimed")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === "existing")).toHaveLength(parallel - 1);
    });

    it(`stores at most one resource when ${parallel} completions race a takeover`, async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const lateAt = claim.now.getTime() + LEASE_MS + 1;
      const subscriptions = Array.from({ length: parallel }, () => sampleSubscription(projectId));
      const racers = subscriptions.map((subscription) => () => {
        const completion = completionOf(claim, { kind: "subscription", subscription });
        return storage.completeIdempotencyKey({ ...completion, now: new Date(lateAt) });
      });
      // The takeover starts halfway through the completions, so in-process adapters interleave too.
      const half = Math.floor(parallel / 2);
      const early = racers.slice(0, half).map((complete) => complete());
      const takeover = storage.claimIdempotencyKey(retryOf(claim, lateAt));
      const late = racers.slice(half).map((complete) => complete());
      const results = await Promise.all([...early, ...late]);
      const takeoverOutcome = await unwrap(takeover);
      const completed = results.filter((result) => result.isOk());
      const errors = results.flatMap((result) => (result.isErr() ? [result.error.code] : []));
      expect(errors).toEqual(errors.map(() => "lease_lost"));
      expect(completed.length).toBeLessThanOrEqual(1);
      const found = await Promise.all(
        subscriptions.map(({ id }) => unwrap(storage.findSubscription(projectId, id))),
      );
      expect(found.filter((subscription) => subscription !== null)).toHaveLength(completed.length);
      expect(takeoverOutcome.kind).toBe(completed.length === 1 ? "existing" : "claimed");
    });
  });
}
