import { randomUUID } from "node:crypto";
import type { DomainEvent, NewIdempotencyRecord, OneStepWrite } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, sampleReceipt } from "./fixtures.js";
import {
  addLiveKey,
  completedRecord,
  completionOf,
  newClaim,
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

/** A new record for a fresh key at `now`, and the write that stores an invoice with the record's id. */
function invoiceCreate(projectId: string, now: number, overrides: Partial<NewIdempotencyRecord> = {}) {
  const { key, fingerprint, recordId, expiresAt } = newClaim(projectId, now);
  const record: NewIdempotencyRecord = {
    projectId,
    key,
    fingerprint,
    recordId,
    now: new Date(now),
    expiresAt,
    apiKeyId: null,
    ...overrides,
  };
  const write: OneStepWrite = {
    response: sampleResponse(record.recordId),
    // With a receipt: createOnce writes it through its own statement (json_to_recordset on PostgreSQL).
    resource: {
      kind: "invoice",
      invoice: sampleInvoice(projectId, { id: record.recordId, receipt: sampleReceipt("250000", "USD") }),
    },
    events: [],
    payments: [],
  };
  return { record, write };
}

/** The same key and fingerprint again at `now`, with a new record id. */
function againOf(record: NewIdempotencyRecord, now: number, overrides: Partial<NewIdempotencyRecord> = {}) {
  return invoiceCreate(record.projectId, now, {
    key: record.key,
    fingerprint: record.fingerprint,
    ...overrides,
  });
}

const markerOf = (write: OneStepWrite) => (JSON.parse(write.response.body) as { marker: string }).marker;
const invoiceOf = (write: OneStepWrite) => (write.resource === null ? null : write.resource.invoice);

/** `createOnce` (API.md 3 in one step): a free key gets the record and the resource together, or nothing. */
export function describeCreateOnceContract(factory: StorageFactory, options: StorageContractOptions): void {
  const parallel = options.concurrency ?? 50;

  describe("createOnce", () => {
    it("stores the write under a free key: the record replays it, the resource is findable", async () => {
      const [storage, projectId] = await withProject(factory);
      const { record, write } = invoiceCreate(projectId, Date.now());
      expect(await unwrap(storage.createOnce(record, write))).toEqual({ kind: "created" });
      const later = { ...record, now: new Date(record.now.getTime() + SECOND_MS) };
      expect(await unwrap(storage.findIdempotencyRecord(later))).toEqual({
        kind: "existing",
        record: completedRecord(record.fingerprint, write.response),
      });
      expect(await unwrap(storage.findInvoice(projectId, record.recordId))).toEqual(invoiceOf(write));
    });

    it("answers a completed key with its record and stores nothing of a second write", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.record, first.write));
      const second = againOf(first.record, first.record.now.getTime() + SECOND_MS);
      expect(await unwrap(storage.createOnce(second.record, second.write))).toEqual({
        kind: "existing",
        record: completedRecord(first.record.fingerprint, first.write.response),
      });
      expect(await unwrap(storage.findInvoice(projectId, second.record.recordId))).toBeNull();
      expect(await rowsContaining(storage, "idempotency_records", markerOf(second.write))).toEqual([]);
    });

    it("answers a key claimed by another request with its in-progress record, and writes nothing", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const { record, write } = againOf(claim, claim.now.getTime() + SECOND_MS);
      expect(await unwrap(storage.createOnce(record, write))).toEqual({
        kind: "existing",
        record: {
          state: "in_progress",
          fingerprint: claim.fingerprint,
          leaseExpiresAt: claim.leaseExpiresAt,
        },
      });
      expect(await unwrap(storage.findInvoice(projectId, record.recordId))).toBeNull();
      // The claim still holds the key: its completion goes through.
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, null)));
    });

    it("replaces an expired record with a new one under the new record id", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.record, first.write));
      const later = first.record.now.getTime() + TTL_MS;
      const second = againOf(first.record, later, { fingerprint: "e".repeat(64) });
      expect(await unwrap(storage.createOnce(second.record, second.write))).toEqual({ kind: "created" });
      const lookup = { ...second.record, now: new Date(later + SECOND_MS) };
      expect(await unwrap(storage.findIdempotencyRecord(lookup))).toEqual({
        kind: "existing",
        record: completedRecord("e".repeat(64), second.write.response),
      });
      expect(await unwrap(storage.findInvoice(projectId, second.record.recordId))).not.toBeNull();
    });

    it("stores a refusal without a resource", async () => {
      const [storage, projectId] = await withProject(factory);
      const response = {
        status: 422,
        headers: { "content-type": "application/problem+json" },
        body: JSON.stringify({ code: "method_unavailable", marker: randomUUID() }),
      };
      const { record } = invoiceCreate(projectId, Date.now());
      const refusal: OneStepWrite = { response, resource: null, events: [], payments: [] };
      expect(await unwrap(storage.createOnce(record, refusal))).toEqual({ kind: "created" });
      expect(await unwrap(storage.findIdempotencyRecord(record))).toEqual({
        kind: "existing",
        record: { state: "completed", fingerprint: record.fingerprint, response },
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
      const first = invoiceCreate(projectId, Date.now());
      const stored = event();
      await unwrap(storage.createOnce(first.record, { ...first.write, events: [stored] }));
      const second = againOf(first.record, first.record.now.getTime());
      await unwrap(storage.createOnce(second.record, { ...second.write, events: [event()] }));
      const events = await rowsContaining(storage, "events", projectId);
      expect(events.map((row) => row.id)).toEqual([stored.id]);
    });

    it("writes under a key revoked only from a moment ahead (a rotation's grace), and nothing once it passed", async () => {
      const [storage, projectId] = await withProject(factory);
      const key = await addLiveKey(storage, projectId);
      await unwrap(storage.revokeApiKey(key.sha256, new Date(Date.now() + 3_600_000)));
      const during = invoiceCreate(projectId, Date.now(), { apiKeyId: key.id });
      expect(await unwrap(storage.createOnce(during.record, during.write))).toEqual({ kind: "created" });
      await unwrap(storage.revokeApiKey(key.sha256, new Date(Date.now() - 1000)));
      const after = invoiceCreate(projectId, Date.now(), { apiKeyId: key.id });
      expect(await unwrap(storage.createOnce(after.record, after.write))).toEqual({ kind: "key_revoked" });
    });

    it("writes nothing for a revoked or foreign API key, even on a key it would replay", async () => {
      const [storage, projectId] = await withProject(factory);
      const key = await addLiveKey(storage, projectId);
      const first = invoiceCreate(projectId, Date.now(), { apiKeyId: key.id });
      expect(await unwrap(storage.createOnce(first.record, first.write))).toEqual({ kind: "created" });
      const before = await storage.inspect();
      await unwrap(storage.revokeApiKey(key.sha256, new Date()));
      for (const apiKeyId of [key.id, randomUUID()]) {
        const fresh = invoiceCreate(projectId, Date.now(), { apiKeyId });
        expect(await unwrap(storage.createOnce(fresh.record, fresh.write))).toEqual({ kind: "key_revoked" });
        const replay = againOf(first.record, Date.now(), { apiKeyId });
        expect(await unwrap(storage.createOnce(replay.record, replay.write))).toEqual({
          kind: "key_revoked",
        });
      }
      const after = await storage.inspect();
      expect(after.idempotency_records).toEqual(before.idempotency_records);
      expect(after.invoices).toEqual(before.invoices);
    });

    it("fails with conflict, storing nothing, when the new resource's id is taken", async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      await unwrap(storage.createOnce(first.record, first.write));
      // Another key whose write makes a resource with the first one's id.
      const clash = invoiceCreate(projectId, Date.now(), { recordId: first.record.recordId });
      expect(await unwrapErr(storage.createOnce(clash.record, clash.write))).toMatchObject({
        code: "conflict",
      });
      expect(await rowsContaining(storage, "idempotency_records", clash.record.key)).toEqual([]);
    });

    it(`creates exactly once when ${parallel} requests race for one key`, async () => {
      const [storage, projectId] = await withProject(factory);
      const first = invoiceCreate(projectId, Date.now());
      const racers = [
        first,
        ...Array.from({ length: parallel - 1 }, () => againOf(first.record, Date.now())),
      ];
      const outcomes = await Promise.all(racers.map((r) => unwrap(storage.createOnce(r.record, r.write))));
      expect(outcomes.filter((outcome) => outcome.kind === "created")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === "existing")).toHaveLength(parallel - 1);
      const winner = racers[outcomes.findIndex((outcome) => outcome.kind === "created")];
      for (const outcome of outcomes.filter((o) => o.kind === "existing"))
        expect(outcome).toMatchObject({ record: { response: winner?.write.response } });
      const found = await Promise.all(
        racers.map(({ record }) => unwrap(storage.findInvoice(projectId, record.recordId))),
      );
      expect(found.filter((invoice) => invoice !== null)).toHaveLength(1);
    });
  });

  describe("findIdempotencyRecord", () => {
    it("finds a key free when it has no record, or only an expired one", async () => {
      const [storage, projectId] = await withProject(factory);
      const { record, write } = invoiceCreate(projectId, Date.now());
      expect(await unwrap(storage.findIdempotencyRecord(record))).toEqual({ kind: "free" });
      await unwrap(storage.createOnce(record, write));
      const expired = { ...record, now: record.expiresAt };
      expect(await unwrap(storage.findIdempotencyRecord(expired))).toEqual({ kind: "free" });
    });

    it("answers a claimed key with its in-progress record, and takes nothing over", async () => {
      const [storage, projectId] = await withProject(factory);
      const claim = newClaim(projectId, Date.now());
      await unwrap(storage.claimIdempotencyKey(claim));
      const afterLease = { ...claim, now: claim.leaseExpiresAt };
      const found = {
        state: "in_progress",
        fingerprint: claim.fingerprint,
        leaseExpiresAt: claim.leaseExpiresAt,
      };
      expect(await unwrap(storage.findIdempotencyRecord(afterLease))).toEqual({
        kind: "existing",
        record: found,
      });
      // The lease still holds: looking it up did not touch it.
      await unwrap(storage.completeIdempotencyKey(completionOf(claim, null)));
    });

    it("refuses a revoked or foreign API key and writes nothing", async () => {
      const [storage, projectId] = await withProject(factory);
      const key = await addLiveKey(storage, projectId);
      const { record, write } = invoiceCreate(projectId, Date.now(), { apiKeyId: key.id });
      await unwrap(storage.createOnce(record, write));
      expect(await unwrap(storage.findIdempotencyRecord(record))).toMatchObject({ kind: "existing" });
      const before = await storage.inspect();
      await unwrap(storage.revokeApiKey(key.sha256, new Date()));
      for (const apiKeyId of [key.id, randomUUID()]) {
        expect(await unwrap(storage.findIdempotencyRecord({ ...record, apiKeyId }))).toEqual({
          kind: "key_revoked",
        });
        const unknown = { ...record, key: `key-${randomUUID()}`, apiKeyId };
        expect(await unwrap(storage.findIdempotencyRecord(unknown))).toEqual({ kind: "key_revoked" });
      }
      expect((await storage.inspect()).idempotency_records).toEqual(before.idempotency_records);
    });
  });
}
