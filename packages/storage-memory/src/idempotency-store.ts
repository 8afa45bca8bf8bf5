import type {
  ClaimOutcome,
  CreateOnceOutcome,
  ExistingIdempotencyRecord,
  IdempotencyClaim,
  IdempotencyCompletion,
  IdempotencyLookup,
  IdempotencyRelease,
  LookupOutcome,
  NewIdempotencyRecord,
  OneStepWrite,
} from "@kopek/core";
import { eraseJsonStrings } from "@kopek/core";
import {
  type CompletedRecord,
  completedExpiresAt,
  decodeCompleted,
  encodeCompleted,
  expiredInPlace,
} from "./completed-record.js";
import { ExpiryQueue } from "./expiry-queue.js";
import { type InProgressRow, idempotencyRows, recordKeyOf, splitRecordKey } from "./idempotency-rows.js";
import { OffHeapRows } from "./off-heap-rows.js";
import type { ProjectStore } from "./project-store.js";
import type { ResourceStore } from "./resource-store.js";

type Row = InProgressRow | CompletedRecord;

/**
 * Idempotency records (the port's claim/complete/release/purge). Every method runs to the end
 * synchronously, so each check-and-set is atomic in one process without locks. A record in progress
 * is an object in its project's map; completed (one is kept for every write, for 24 hours), it moves
 * off the heap, keyed by project and key (off-heap-rows.ts says why).
 */
export class IdempotencyStore {
  readonly #inProgress = new Map<string, Map<string, InProgressRow>>();
  readonly #completed = new OffHeapRows<CompletedRecord>();
  /**
   * Records claimed (they may complete later): completed records written in one step are found
   * expired in the order they were written, by `OffHeapRows.deleteOldest`, and need no entry here.
   */
  readonly #expiry = new ExpiryQueue();
  /** The expiry of the last completed record written, and whether none expired before one written earlier. */
  #lastCompletedExpiry = Number.NEGATIVE_INFINITY;
  #completedInOrder = true;
  readonly #resources: ResourceStore;
  readonly #projects: ProjectStore;
  readonly #purgePerClaim: number;

  /** `purgePerClaim`: how many expired records a claim may purge on its way, keeping memory bounded. */
  constructor(resources: ResourceStore, projects: ProjectStore, purgePerClaim: number) {
    this.#resources = resources;
    this.#projects = projects;
    this.#purgePerClaim = purgePerClaim;
  }

  claim(claim: IdempotencyClaim): ClaimOutcome {
    if (!this.#keyHolds(claim)) return { kind: "key_revoked" };
    const now = claim.now.getTime();
    this.#purgeExpired(now, this.#purgePerClaim);
    const { projectId, recordId, key, fingerprint, sentDigest, leaseToken } = claim;
    const row = this.#row(projectId, key);
    if (row === undefined || this.#expiresAt(row) <= now) {
      const expiresAt = claim.expiresAt.getTime();
      const leaseExpiresAt = claim.leaseExpiresAt.getTime();
      const row = { recordId, fingerprint, sentDigest, expiresAt, leaseToken, leaseExpiresAt };
      this.#setInProgress(projectId, key, row);
      this.#expiry.push(expiresAt, projectId, key);
      return { kind: "claimed", recordId, takenOver: false };
    }
    if (typeof row !== "string" && row.leaseExpiresAt <= now && row.fingerprint === fingerprint) {
      // Taken over: the record id stays, so provider keys derived from it stay the same.
      row.leaseToken = leaseToken;
      row.leaseExpiresAt = claim.leaseExpiresAt.getTime();
      return { kind: "claimed", recordId: row.recordId, takenOver: true };
    }
    return { kind: "existing", record: this.#existing(row) };
  }

  /**
   * `createOnce`: stores the write as the key's completed record, with its resource, when the key is
   * free; "conflict" when its new resource's id is taken (nothing is stored). The resource is stored as
   * it is, not copied: core hands it over and keeps no reference.
   */
  createOnce(record: NewIdempotencyRecord, write: OneStepWrite): CreateOnceOutcome | "conflict" {
    if (!this.#keyHolds(record)) return { kind: "key_revoked" };
    const now = record.now.getTime();
    this.#purgeExpired(now, this.#purgePerClaim);
    const row = this.#row(record.projectId, record.key);
    if (row !== undefined && this.#expiresAt(row) > now)
      return { kind: "existing", record: this.#existing(row) };
    if (write.resource !== null && !this.#resources.store(write.resource, { owned: true })) return "conflict";
    const { recordId, fingerprint, sentDigest } = record;
    const expiresAt = record.expiresAt.getTime();
    const completed = encodeCompleted({
      recordId,
      fingerprint,
      sentDigest,
      expiresAt,
      response: write.response,
    });
    this.#setCompleted(record.projectId, record.key, completed, expiresAt);
    return { kind: "created" };
  }

  /** What the key holds at `lookup.now`; writes nothing. */
  find(lookup: IdempotencyLookup): LookupOutcome {
    if (!this.#keyHolds(lookup)) return { kind: "key_revoked" };
    const row = this.#row(lookup.projectId, lookup.key);
    if (row === undefined || this.#expiresAt(row) <= lookup.now.getTime()) return { kind: "free" };
    return { kind: "existing", record: this.#existing(row) };
  }

  /** Stores the response and the resource together, or nothing when the lease is lost or the resource changed. */
  complete(completion: IdempotencyCompletion): "completed" | "lease_lost" | "conflict" | "duplicate" {
    const row = this.#inProgress.get(completion.projectId)?.get(completion.key);
    if (row === undefined || !holds(row, completion.leaseToken)) return "lease_lost";
    // Checked and written in one step; on a conflict nothing was written and the key stays held.
    const { resource } = completion;
    if (resource !== null) {
      if (!this.#resources.acceptsPayments(completion.payments)) return "conflict";
      if (this.#resources.takesUsedInvoice(resource)) return "duplicate";
      if (!this.#resources.store(resource)) return "conflict";
      this.#resources.writePayments(completion.payments);
    }
    const { recordId, fingerprint, sentDigest, expiresAt } = row;
    const completed = { recordId, fingerprint, sentDigest, expiresAt, response: completion.response };
    this.#setCompleted(completion.projectId, completion.key, encodeCompleted(completed), expiresAt);
    return "completed";
  }

  release(release: IdempotencyRelease): void {
    const row = this.#inProgress.get(release.projectId)?.get(release.key);
    if (row === undefined || !holds(row, release.leaseToken)) return;
    row.leaseToken = null;
    row.leaseExpiresAt = Math.min(row.leaseExpiresAt, release.now.getTime());
  }

  /** Deletes at most `limit` expired records; returns how many it deleted. */
  purge(now: Date, limit: number): number {
    const at = now.getTime();
    let deleted = this.#purgeExpired(at, limit);
    // Records that expire out of write order (a shorter TTL than those before, a completion after a
    // later claim) may hide behind the queue's head or the oldest completed one not yet expired.
    if (deleted < limit && (!this.#expiry.ordered || !this.#completedInOrder)) {
      for (const rows of this.#inProgress.values()) {
        for (const [key, row] of rows) {
          if (deleted >= limit) return deleted;
          if (row.expiresAt > at) continue;
          rows.delete(key);
          deleted += 1;
        }
      }
      const expired = this.#completed.pick((bytes, start, end) =>
        expiredInPlace(bytes, start, end, at) ? true : null,
      );
      for (const [recordKey] of expired) {
        if (deleted >= limit) return deleted;
        this.#completed.delete(recordKey);
        deleted += 1;
      }
    }
    return deleted;
  }

  /** Replaces every JSON string equal to one of `values` in a project's stored responses by "erased". */
  erase(projectId: string, values: readonly string[]): void {
    const rewritten: [string, CompletedRecord][] = [];
    for (const [recordKey, row] of this.#completed.entries()) {
      if (splitRecordKey(recordKey).projectId !== projectId) continue;
      const fields = decodeCompleted(row);
      const body = eraseJsonStrings(fields.response.body, values);
      if (body !== fields.response.body)
        rewritten.push([recordKey, encodeCompleted({ ...fields, response: { ...fields.response, body } })]);
    }
    for (const [recordKey, record] of rewritten) this.#completed.set(recordKey, record);
  }

  /** Deletes every record of the project (its deletion); how many went. */
  deleteProject(projectId: string): number {
    let deleted = this.#inProgress.get(projectId)?.size ?? 0;
    this.#inProgress.delete(projectId);
    // Their entries in the expiry queue find no record later, and are skipped.
    for (const [recordKey] of this.#completed.entries())
      if (splitRecordKey(recordKey).projectId === projectId && this.#completed.delete(recordKey))
        deleted += 1;
    return deleted;
  }

  /** The stored rows, for `inspect()`. */
  rows() {
    return idempotencyRows(this.#inProgress, this.#completed);
  }

  #expiresAt(row: Row): number {
    return typeof row === "string" ? completedExpiresAt(row) : row.expiresAt;
  }

  #existing(row: Row): ExistingIdempotencyRecord {
    if (typeof row !== "string")
      return {
        state: "in_progress",
        fingerprint: row.fingerprint,
        leaseExpiresAt: new Date(row.leaseExpiresAt),
      };
    const { fingerprint, sentDigest, response } = decodeCompleted(row);
    return { state: "completed", fingerprint, sentDigest, response };
  }

  // Whether the request's API key still belongs to the project (no key to check: it holds).
  #keyHolds(request: { readonly apiKeyId: string | null; readonly projectId: string }): boolean {
    return request.apiKeyId === null || this.#projects.keyHolds(request.apiKeyId, request.projectId);
  }

  // The key's record, in progress or completed, expired or not.
  #row(projectId: string, key: string): Row | undefined {
    return this.#inProgress.get(projectId)?.get(key) ?? this.#completed.get(recordKeyOf(projectId, key));
  }

  #setInProgress(projectId: string, key: string, row: InProgressRow): void {
    this.#completed.delete(recordKeyOf(projectId, key));
    let rows = this.#inProgress.get(projectId);
    if (rows === undefined) {
      rows = new Map();
      this.#inProgress.set(projectId, rows);
    }
    rows.set(key, row);
  }

  #setCompleted(projectId: string, key: string, record: CompletedRecord, expiresAt: number): void {
    this.#inProgress.get(projectId)?.delete(key);
    this.#completed.set(recordKeyOf(projectId, key), record);
    if (expiresAt < this.#lastCompletedExpiry) this.#completedInOrder = false;
    this.#lastCompletedExpiry = expiresAt;
  }

  #delete(projectId: string, key: string): void {
    this.#inProgress.get(projectId)?.delete(key);
    this.#completed.delete(recordKeyOf(projectId, key));
  }

  // Deletes the oldest completed records while they have expired, then pops expired entries off the
  // claims' queue and deletes their records. An entry whose key now holds a later record (written after
  // the first expired) is skipped and not counted; each is looked at once, so the work stays O(1)
  // amortised per claim.
  #purgeExpired(now: number, limit: number): number {
    let deleted = this.#completed.deleteOldest(
      (bytes, start, end) => expiredInPlace(bytes, start, end, now),
      limit,
    );
    while (deleted < limit) {
      const entry = this.#expiry.shiftExpired(now);
      if (entry === undefined) break;
      const row = this.#row(entry.projectId, entry.key);
      if (row === undefined || this.#expiresAt(row) > now) continue;
      this.#delete(entry.projectId, entry.key);
      deleted += 1;
    }
    return deleted;
  }
}

// Whether `leaseToken` holds the record (in progress, not released, not taken over).
function holds(row: Row, leaseToken: string): row is InProgressRow {
  return typeof row !== "string" && row.leaseToken === leaseToken;
}
