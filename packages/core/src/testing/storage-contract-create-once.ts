import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../events/domain-event.js";
import type { IdempotentCreate, IdempotentWrite } from "../ports/idempotency-storage.js";
import { sampleInvoice } from "./fixtures.js";
import {
  addLiveKey,
  completionOf,
  newClaim,
  retryOf,
  rowsContaining,
  SECOND_MS,
  type StorageContractOptions,
  type StorageFactory,
  sampleResponse,
  TTL_MS,
  unwrap,
  unwrapErr,
  withProject,
} from "./storage-contract-support.js";

/** A create on a fresh key at `now` whose `build` makes an invoice with id `recordId` (counted in `builds`). */
function invoiceCreate(projectId: string, now: number, overrides: Partial<IdempotentCreate> = {}) {
  const claim = newClaim(projectId, now);
  const builds: IdempotentWrite[] = [];
  const create: IdempotentCreate = {
    projectId,
    key: claim.key,
    fingerprint: claim.fingerprint,
    recordId: claim.recordId,
    now: claim.now,
    expiresAt: claim.expiresAt,
    apiKeyId: null,
    build: () => {
      const id = create.recordId;
      const write = {
        response: sampleResponse(id),
        resource: { kind: "invoice" as const, invoice: sampleInvoice(projectId, { id }) },
        events: [],
      };
      builds.push(write);
      return write;
    },
    ...overrides,
  };
  return { create, builds };
}

/** The same key and fingerprint again at `now`, with a new record id. */
function againOf(create: IdempotentCreate, now: number, overrides: Partial<IdempotentCreate> = {}) {
  return invoiceCreate(create.projectId, now, {
    key: create.key,
    fingerprint: create.fingerprint,
    ...overrides,
  });
}

/** A claim of the create's key and fingerprint at `now`: what a replay, or a new request, would claim. */
const claimOf = (create: IdempotentCreate, now: number) =>
  newClaim(create.projectId, now, { key: create.key, fingerprint: create.fingerprint });

const markerOf = (write: IdempotentWrite | undefined) =>
  (JSON.parse(write?.response.body ?? "{}") as { marker: string }).marker;

/** `createOnce` (API.md 3 in one step): a free key gets the record and the resource together, or nothing. */
export function describeCreateOnceContract(factory: StorageFactory, options: StorageContractOptions): void {
  const parallel = options.concurrency ?? 50;

  describe("createOnce", () => {
    it("stores what build makes under a free key: the record replays it, the resource is findable", async () => {
      const [storage, projectId] = await withProject(factory);
      const { create, builds } = invoiceCreate(projectId, Date.now());
      expect(await unwrap(storage.createOnce(create))).toEqual({ kind: "created" });
      expect(builds).toHaveLength(1);
      const replay = claimOf(create, create.now.getTime() + SECOND_MS);
      expect(await unwrap(storage.claimIdempotencyKey(replay))).toEqual({
        kind: "existing",
        record: { state: "completed", fingerprint: create.fingerprint, response: builds[0]?.response },
      });
      const found = await unwrap(storage.findInvoice(projectId, create.recordId));
      expect(found).toEqual(builds[0]?.resource?.kind === "invoice" ? builds[0].resource.invoice : null);
    });

    it("answers a completed key with its record and stores nothing of a second build", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.create));
      const second = againOf(first.create, first.create.now.getTime() + SECOND_MS);
      expect(await unwrap(storage.createOnce(second.create))).toEqual({
        kind: "existing",
        record: {
          state: "completed",
          fingerprint: first.create.fingerprint,
          response: first.builds[0]?.response,
        },
      });
      expect(await unwrap(storage.findInvoice(projectId, second.create.recordId))).toBeNull();
      expect(await rowsContaining(storage, "idempotency_records", markerOf(second.builds[0]))).toEqual([]);
    });

    it("answers a key claimed by another request with its in-progress record, and writes nothing", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const { create } = invoiceCreate(projectId, claim.now.getTime() + SECOND_MS, {
        key: claim.key,
        fingerprint: claim.fingerprint,
      });
      expect(await unwrap(storage.createOnce(create))).toEqual({
        kind: "existing",
        record: {
          state: "in_progress",
          fingerprint: claim.fingerprint,
          leaseExpiresAt: claim.leaseExpiresAt,
        },
      });
      expect(await unwrap(storage.findInvoice(projectId, create.recordId))).toBeNull();
      // The claim still holds the key: its completion goes through.
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, null)));
    });

    it("replaces an expired record with a new one under the new record id", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.create));
      const later = first.create.now.getTime() + TTL_MS;
      const second = againOf(first.create, later, { fingerprint: "e".repeat(64) });
      expect(await unwrap(storage.createOnce(second.create))).toEqual({ kind: "created" });
      const replay = claimOf(second.create, later + SECOND_MS);
      expect(await unwrap(storage.claimIdempotencyKey(replay))).toMatchObject({
        kind: "existing",
        record: { state: "completed", fingerprint: "e".repeat(64), response: second.builds[0]?.response },
      });
      expect(await unwrap(storage.findInvoice(projectId, second.create.recordId))).not.toBeNull();
    });

    it("stores nothing when build makes nothing, so the key stays free", async () => {
      const [storage, projectId] = await withProject(factory);
      const { create } = invoiceCreate(projectId, Date.now(), { build: () => null });
      expect(await unwrap(storage.createOnce(create))).toEqual({ kind: "not_built" });
      expect(await rowsContaining(storage, "idempotency_records", create.key)).toEqual([]);
      const claim = claimOf(create, create.now.getTime());
      expect(await unwrap(storage.claimIdempotencyKey(claim))).toMatchObject({ kind: "claimed" });
    });

    it("answers a taken key with its record even when build makes nothing", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.create));
      const refused = againOf(first.create, first.create.now.getTime(), { build: () => null });
      expect(await unwrap(storage.createOnce(refused.create))).toMatchObject({
        kind: "existing",
        record: { state: "completed" },
      });
    });

    it("stores a refusal without a resource", async () => {
      const [storage, projectId] = await withProject(factory);
      const response = {
        status: 422,
        headers: { "content-type": "application/problem+json" },
        body: JSON.stringify({ code: "method_unavailable", marker: randomUUID() }),
      };
      const { create } = invoiceCreate(projectId, Date.now(), {
        build: () => ({ response, resource: null, events: [] }),
      });
      expect(await unwrap(storage.createOnce(create))).toEqual({ kind: "created" });
      const replay = claimOf(create, create.now.getTime());
      expect(await unwrap(storage.claimIdempotencyKey(replay))).toEqual({
        kind: "existing",
        record: { state: "completed", fingerprint: create.fingerprint, response },
      });
      expect(await rowsContaining(storage, "invoices", projectId)).toEqual([]);
    });

    it("stores the resource's events with it, and none when the key was taken", async () => {
      const [storage, projectId] = await withProject(factory);
      const event = (): DomainEvent => ({
        id: randomUUID(),
        projectId,
        type: "invoice.paid",
        createdAt: new Date(),
        data: { marker: randomUUID() },
      });
      const withEvent = (create: IdempotentCreate, made: DomainEvent) => ({
        ...create,
        build: () => {
          const write = create.build();
          return write === null ? null : { ...write, events: [made] };
        },
      });
      const first = invoiceCreate(projectId, Date.now());
      const stored = event();
      await unwrap(storage.createOnce(withEvent(first.create, stored)));
      const discarded = event();
      const second = againOf(first.create, first.create.now.getTime());
      await unwrap(storage.createOnce(withEvent(second.create, discarded)));
      const events = await rowsContaining(storage, "events", projectId);
      expect(events.map((row) => row.id)).toEqual([stored.id]);
    });

    it("writes nothing for a revoked or foreign API key, even on a key it would replay", async () => {
      const [storage, projectId] = await withProject(factory);
      const key = await addLiveKey(storage, projectId);
      const first = invoiceCreate(projectId, Date.now(), { apiKeyId: key.id });
      expect(await unwrap(storage.createOnce(first.create))).toEqual({ kind: "created" });
      const before = await storage.inspect();
      await unwrap(storage.revokeApiKey(key.sha256, new Date()));
      for (const apiKeyId of [key.id, randomUUID()]) {
        const fresh = invoiceCreate(projectId, Date.now(), { apiKeyId });
        expect(await unwrap(storage.createOnce(fresh.create))).toEqual({ kind: "key_revoked" });
        const replay = againOf(first.create, Date.now(), { apiKeyId });
        expect(await unwrap(storage.createOnce(replay.create))).toEqual({ kind: "key_revoked" });
        const refused = invoiceCreate(projectId, Date.now(), { apiKeyId, build: () => null });
        expect(await unwrap(storage.createOnce(refused.create))).toEqual({ kind: "key_revoked" });
      }
      const after = await storage.inspect();
      expect(after.idempotency_records).toEqual(before.idempotency_records);
      expect(after.invoices).toEqual(before.invoices);
    });

    it("fails with conflict, storing nothing, when the new resource's id is taken", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.create));
      // Another key whose build makes a resource with the first one's id.
      const clash = invoiceCreate(projectId, Date.now(), { recordId: first.create.recordId });
      expect(await unwrapErr(storage.createOnce(clash.create))).toMatchObject({ code: "conflict" });
      expect(await rowsContaining(storage, "idempotency_records", clash.create.key)).toEqual([]);
    });

    it(`creates exactly once when ${parallel} requests race for one key`, async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      const racers = [
        first,
        ...Array.from({ length: parallel - 1 }, () => againOf(first.create, Date.now())),
      ];
      const outcomes = await Promise.all(racers.map(({ create }) => unwrap(storage.createOnce(create))));
      expect(outcomes.filter((outcome) => outcome.kind === "created")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === "existing")).toHaveLength(parallel - 1);
      const winner = racers[outcomes.findIndex((outcome) => outcome.kind === "created")];
      for (const outcome of outcomes.filter((o) => o.kind === "existing"))
        expect(outcome).toMatchObject({ record: { response: winner?.builds[0]?.response } });
      const found = await Promise.all(
        racers.map(({ create }) => unwrap(storage.findInvoice(projectId, create.recordId))),
      );
      expect(found.filter((invoice) => invoice !== null)).toHaveLength(1);
    });
  });

  describe("withdrawIdempotencyClaim", () => {
    it("deletes a fresh claim its lease holds, so the key is free for any body", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      await unwrap(
        storage.withdrawIdempotencyClaim({ projectId, key: claim.key, leaseToken: claim.leaseToken }),
      );
      expect(await rowsContaining(storage, "idempotency_records", claim.key)).toEqual([]);
      const other = retryOf(claim, claim.now.getTime(), { fingerprint: "d".repeat(64) });
      expect(await unwrap(storage.claimIdempotencyKey(other))).toEqual({
        kind: "claimed",
        recordId: other.recordId,
        takenOver: false,
      });
    });

    it("leaves a record alone that another lease holds, or that is completed", async () => {
      const [storage, projectId] = await withProject(factory);
      const held = newClaim(projectId, Date.now());
      const completed = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(held));
      await unwrap(storage.claimIdempotencyKey(completed));
      await unwrap(storage.completeIdempotencyKey(completionOf(completed, null)));
      for (const claim of [held, completed]) {
        const withdrawal = { projectId, key: claim.key, leaseToken: randomUUID() };
        await unwrap(storage.withdrawIdempotencyClaim(withdrawal));
      }
      await unwrap(
        storage.withdrawIdempotencyClaim({ projectId, key: completed.key, leaseToken: completed.leaseToken }),
      );
      expect(await rowsContaining(storage, "idempotency_records", held.key)).toHaveLength(1);
      expect(await rowsContaining(storage, "idempotency_records", completed.key)).toHaveLength(1);
      const replay = retryOf(completed, completed.now.getTime());
      expect(await unwrap(storage.claimIdempotencyKey(replay))).toMatchObject({
        kind: "existing",
        record: { state: "completed" },
      });
    });
  });
}
