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
  StoredResponse,
} from "@kopek/core";
import { ExpiryQueue } from "./expiry-queue.js";
import type { ProjectStore } from "./project-store.js";
import type { ResourceStore } from "./resource-store.js";

/**
 * One idempotency record, changed in place as it moves on (claimed, taken over, released, completed):
 * a write on every request, so no new object per step.
 */
interface IdempotencyRow {
  readonly recordId: string;
  readonly projectId: string;
  readonly key: string;
  readonly fingerprint: string;
  /** The first request's bytes fingerprint: a byte-identical retry is answered before it is parsed. */
  readonly bytesFingerprint: string | null;
  /** Epoch milliseconds; fixed for the life of the record (API.md 3: 24 hours from the first request). */
  readonly expiresAt: number;
  /** Null while in progress. */
  response: StoredResponse | null;
  /** The holder's lease while in progress; null once released or completed. */
  leaseToken: string | null;
  /** Epoch milliseconds; meaningful while in progress. */
  leaseExpiresAt: number;
}

// Frozen once, a stored response can be handed to every replay without a copy. `Object.assign`, not
// a spread: once optimized, `Object.freeze({ ...headers })` gave every record a hidden class of its
// own (60,000 records, 60,000 maps and descriptor arrays kept alive, ~160 bytes each).
function frozenCopy(response: StoredResponse): StoredResponse {
  const { status, headers, body } = response;
  return Object.freeze({ status, headers: Object.freeze(Object.assign({}, headers)), body });
}

function existing(row: IdempotencyRow): ExistingIdempotencyRecord {
  const { fingerprint, bytesFingerprint, response } = row;
  return response !== null
    ? { state: "completed", fingerprint, bytesFingerprint, response }
    : { state: "in_progress", fingerprint, leaseExpiresAt: new Date(row.leaseExpiresAt) };
}

/**
 * Idempotency records (the port's claim/complete/release/purge). Every method runs to the end
 * synchronously, so each check-and-set is atomic in one process without locks. Records are kept per
 * project, by key: no combined key to build (and hash) on every claim and completion.
 */
export class IdempotencyStore {
  readonly #byProject = new Map<string, Map<string, IdempotencyRow>>();
  readonly #expiry = new ExpiryQueue<IdempotencyRow>();
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
    const { recordId, projectId, key, fingerprint, bytesFingerprint, leaseToken } = claim;
    const row = rows.get(key);
    if (row === undefined || row.expiresAt <= now) {
      const fresh: IdempotencyRow = {
        recordId,
        projectId,
        key,
        fingerprint,
        bytesFingerprint,
        expiresAt: claim.expiresAt.getTime(),
        response: null,
        leaseToken,
        leaseExpiresAt: claim.leaseExpiresAt.getTime(),
      };
      rows.set(key, fresh);
      this.#expiry.push(fresh);
      return { kind: "claimed", recordId, takenOver: false };
    }
    if (row.response === null && row.leaseExpiresAt <= now && row.fingerprint === fingerprint) {
      // Taken over: the record id stays, so provider keys derived from it stay the same.
      row.leaseToken = leaseToken;
      row.leaseExpiresAt = claim.leaseExpiresAt.getTime();
      return { kind: "claimed", recordId: row.recordId, takenOver: true };
    }
    return { kind: "existing", record: existing(row) };
  }

  /**
   * `createOnce`: stores the write as the key's completed record, with its resource, when the key is
   * free; "conflict" when its new resource's id is taken (nothing is stored). The write is stored as
   * it is, not copied: core hands it over and keeps no reference.
   */
  createOnce(record: NewIdempotencyRecord, write: OneStepWrite): CreateOnceOutcome | "conflict" {
    if (!this.#keyHolds(record)) return { kind: "key_revoked" };
    const now = record.now.getTime();
    const rows = this.#rowsOf(record.projectId, now);
    const row = rows.get(record.key);
    if (row !== undefined && row.expiresAt > now) return { kind: "existing", record: existing(row) };
    if (write.resource !== null && !this.#resources.store(write.resource, { owned: true })) return "conflict";
    const fresh: IdempotencyRow = {
      recordId: record.recordId,
      projectId: record.projectId,
      key: record.key,
      fingerprint: record.fingerprint,
      bytesFingerprint: record.bytesFingerprint,
      expiresAt: record.expiresAt.getTime(),
      response: frozenCopy(write.response),
      leaseToken: null,
      leaseExpiresAt: now,
    };
    rows.set(record.key, fresh);
    this.#expiry.push(fresh);
    return { kind: "created" };
  }

  /** What the key holds at `lookup.now`; writes nothing. */
  find(lookup: IdempotencyLookup): LookupOutcome {
    if (!this.#keyHolds(lookup)) return { kind: "key_revoked" };
    const row = this.#byProject.get(lookup.projectId)?.get(lookup.key);
    if (row === undefined || row.expiresAt <= lookup.now.getTime()) return { kind: "free" };
    return { kind: "existing", record: existing(row) };
  }

  /** Stores the response and the resource together, or nothing when the lease is lost or the resource changed. */
  complete(completion: IdempotencyCompletion): "completed" | "lease_lost" | "conflict" | "duplicate" {
    const row = this.#held(completion.projectId, completion.key, completion.leaseToken);
    if (row === undefined) return "lease_lost";
    // Checked and written in one step; on a conflict nothing was written and the key stays held.
    const { resource } = completion;
    if (resource !== null) {
      if (!this.#resources.acceptsPayments(completion.payments)) return "conflict";
      if (this.#resources.takesUsedInvoice(resource)) return "duplicate";
      if (!this.#resources.store(resource)) return "conflict";
      this.#resources.writePayments(completion.payments);
    }
    row.response = frozenCopy(completion.response);
    row.leaseToken = null;
    return "completed";
  }

  release(release: IdempotencyRelease): void {
    const row = this.#held(release.projectId, release.key, release.leaseToken);
    if (row === undefined) return;
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
          if (row.expiresAt > at) continue;
          rows.delete(key);
          deleted += 1;
        }
      }
    }
    return deleted;
  }

  /** The stored rows, for `inspect()`. */
  rows() {
    return [...this.#byProject.values()].flatMap((rows) =>
      [...rows.values()].map(({ recordId, projectId, key, fingerprint, expiresAt, response, ...lease }) => ({
        recordId,
        projectId,
        key,
        fingerprint,
        state: response === null ? "in_progress" : "completed",
        leaseToken: response === null ? lease.leaseToken : null,
        leaseExpiresAt: response === null ? new Date(lease.leaseExpiresAt) : null,
        expiresAt: new Date(expiresAt),
        response: response === null ? null : { ...response, headers: { ...response.headers } },
      })),
    );
  }

  // Whether the request's API key still belongs to the project (no key to check: it holds).
  #keyHolds(request: { readonly apiKeyId: string | null; readonly projectId: string }): boolean {
    return request.apiKeyId === null || this.#projects.keyHolds(request.apiKeyId, request.projectId);
  }

  // The project's records, after purging a few expired ones on the way (keeps memory bounded).
  #rowsOf(projectId: string, now: number): Map<string, IdempotencyRow> {
    this.#purgeExpired(now, this.#purgePerClaim);
    let rows = this.#byProject.get(projectId);
    if (rows === undefined) {
      rows = new Map();
      this.#byProject.set(projectId, rows);
    }
    return rows;
  }

  // The record while `leaseToken` holds it (in progress, not released, not taken over).
  #held(projectId: string, key: string, leaseToken: string): IdempotencyRow | undefined {
    const row = this.#byProject.get(projectId)?.get(key);
    return row !== undefined && row.response === null && row.leaseToken === leaseToken ? row : undefined;
  }

  // Pops expired rows off the queue's head. A row already replaced or deleted is skipped and not counted;
  // each queued row is popped once, so the work stays O(1) amortised per claim.
  #purgeExpired(now: number, limit: number): number {
    let deleted = 0;
    while (deleted < limit) {
      const row = this.#expiry.shiftExpired(now);
      if (row === undefined) break;
      const rows = this.#byProject.get(row.projectId);
      if (rows?.get(row.key) !== row) continue;
      rows.delete(row.key);
      deleted += 1;
    }
    return deleted;
  }
}
