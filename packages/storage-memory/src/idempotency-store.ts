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
import {
  type CompletedRecord,
  completedExpiresAt,
  decodeCompleted,
  encodeCompleted,
} from "./completed-record.js";
import { ExpiryQueue } from "./expiry-queue.js";
import type { ProjectStore } from "./project-store.js";
import type { ResourceStore } from "./resource-store.js";

/**
 * A record in progress, changed in place as it moves on (claimed, taken over, released). Completed, it
 * is replaced by its `CompletedRecord`.
 */
interface InProgressRow {
  readonly recordId: string;
  readonly fingerprint: string;
  /** Epoch milliseconds; fixed for the life of the record (API.md 3: 24 hours from the first request). */
  readonly expiresAt: number;
  /** The holder's lease; null once released. */
  leaseToken: string | null;
  /** Epoch milliseconds. */
  leaseExpiresAt: number;
}

type Row = InProgressRow | CompletedRecord;

/**
 * Idempotency records (the port's claim/complete/release/purge). Every method runs to the end
 * synchronously, so each check-and-set is atomic in one process without locks. Records are kept per
 * project, by key: no combined key to build (and hash) on every claim and completion.
 */
export class IdempotencyStore {
  readonly #byProject = new Map<string, Map<string, Row>>();
  readonly #expiry = new ExpiryQueue();
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
    const rows = this.#rowsOf(claim.projectId, now);
    const { recordId, key, fingerprint, leaseToken } = claim;
    const row = rows.get(key);
    if (row === undefined || this.#expiresAt(row) <= now) {
      const expiresAt = claim.expiresAt.getTime();
      const leaseExpiresAt = claim.leaseExpiresAt.getTime();
      rows.set(key, { recordId, fingerprint, expiresAt, leaseToken, leaseExpiresAt });
      this.#expiry.push(expiresAt, claim.projectId, key);
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
    const rows = this.#rowsOf(record.projectId, now);
    const row = rows.get(record.key);
    if (row !== undefined && this.#expiresAt(row) > now)
      return { kind: "existing", record: this.#existing(row) };
    if (write.resource !== null && !this.#resources.store(write.resource, { owned: true })) return "conflict";
    const { recordId, fingerprint } = record;
    const expiresAt = record.expiresAt.getTime();
    const completed = encodeCompleted({ recordId, fingerprint, expiresAt, response: write.response });
    rows.set(record.key, completed);
    this.#expiry.push(expiresAt, record.projectId, record.key);
    return { kind: "created" };
  }

  /** What the key holds at `lookup.now`; writes nothing. */
  find(lookup: IdempotencyLookup): LookupOutcome {
    if (!this.#keyHolds(lookup)) return { kind: "key_revoked" };
    const row = this.#byProject.get(lookup.projectId)?.get(lookup.key);
    if (row === undefined || this.#expiresAt(row) <= lookup.now.getTime()) return { kind: "free" };
    return { kind: "existing", record: this.#existing(row) };
  }

  /** Stores the response and the resource together, or nothing when the lease is lost or the resource changed. */
  complete(completion: IdempotencyCompletion): "completed" | "lease_lost" | "conflict" | "duplicate" {
    const rows = this.#byProject.get(completion.projectId);
    const row = rows?.get(completion.key);
    if (rows === undefined || row === undefined || !holds(row, completion.leaseToken)) return "lease_lost";
    // Checked and written in one step; on a conflict nothing was written and the key stays held.
    const { resource } = completion;
    if (resource !== null) {
      if (!this.#resources.acceptsPayments(completion.payments)) return "conflict";
      if (this.#resources.takesUsedInvoice(resource)) return "duplicate";
      if (!this.#resources.store(resource)) return "conflict";
      this.#resources.writePayments(completion.payments);
    }
    const { recordId, fingerprint, expiresAt } = row;
    const completed = { recordId, fingerprint, expiresAt, response: completion.response };
    rows.set(completion.key, encodeCompleted(completed));
    return "completed";
  }

  release(release: IdempotencyRelease): void {
    const row = this.#byProject.get(release.projectId)?.get(release.key);
    if (row === undefined || !holds(row, release.leaseToken)) return;
    row.leaseToken = null;
    row.leaseExpiresAt = Math.min(row.leaseExpiresAt, release.now.getTime());
  }

  /** Deletes at most `limit` expired records; returns how many it deleted. */
  purge(now: Date, limit: number): number {
    const at = now.getTime();
    let deleted = this.#purgeExpired(at, limit);
    // Records that expire out of insertion order (a shorter TTL than those before) hide behind the queue's head.
    if (deleted < limit && !this.#expiry.ordered) {
      for (const rows of this.#byProject.values()) {
        for (const [key, row] of rows) {
          if (deleted >= limit) return deleted;
          if (this.#expiresAt(row) > at) continue;
          rows.delete(key);
          deleted += 1;
        }
      }
    }
    return deleted;
  }

  /** The stored rows, for `inspect()`. */
  rows() {
    return [...this.#byProject].flatMap(([projectId, rows]) =>
      [...rows].map(([key, row]) => {
        if (typeof row !== "string") {
          const { recordId, fingerprint, expiresAt, leaseToken, leaseExpiresAt } = row;
          const lease = { leaseToken, leaseExpiresAt: new Date(leaseExpiresAt) };
          return {
            recordId,
            projectId,
            key,
            fingerprint,
            state: "in_progress",
            ...lease,
            expiresAt: new Date(expiresAt),
            response: null,
          };
        }
        const { recordId, fingerprint, expiresAt, response } = decodeCompleted(row);
        const lease = { leaseToken: null, leaseExpiresAt: null };
        return {
          recordId,
          projectId,
          key,
          fingerprint,
          state: "completed",
          ...lease,
          expiresAt: new Date(expiresAt),
          response,
        };
      }),
    );
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
    const { fingerprint, response } = decodeCompleted(row);
    return { state: "completed", fingerprint, response };
  }

  // Whether the request's API key still belongs to the project (no key to check: it holds).
  #keyHolds(request: { readonly apiKeyId: string | null; readonly projectId: string }): boolean {
    return request.apiKeyId === null || this.#projects.keyHolds(request.apiKeyId, request.projectId);
  }

  // The project's records, after purging a few expired ones on the way (keeps memory bounded).
  #rowsOf(projectId: string, now: number): Map<string, Row> {
    this.#purgeExpired(now, this.#purgePerClaim);
    let rows = this.#byProject.get(projectId);
    if (rows === undefined) {
      rows = new Map();
      this.#byProject.set(projectId, rows);
    }
    return rows;
  }

  // Pops expired entries off the queue's head and deletes their records. An entry whose key now holds a
  // later record (written after the first expired) is skipped and not counted; each entry is popped
  // once, so the work stays O(1) amortised per claim.
  #purgeExpired(now: number, limit: number): number {
    let deleted = 0;
    while (deleted < limit) {
      const entry = this.#expiry.shiftExpired(now);
      if (entry === undefined) break;
      const rows = this.#byProject.get(entry.projectId);
      const row = rows?.get(entry.key);
      if (rows === undefined || row === undefined || this.#expiresAt(row) > now) continue;
      rows.delete(entry.key);
      deleted += 1;
    }
    return deleted;
  }
}

// Whether `leaseToken` holds the record (in progress, not released, not taken over).
function holds(row: Row, leaseToken: string): row is InProgressRow {
  return typeof row !== "string" && row.leaseToken === leaseToken;
}
