import type {
  ClaimOutcome,
  ExistingIdempotencyRecord,
  IdempotencyClaim,
  IdempotencyCompletion,
  IdempotencyRelease,
  StoredResponse,
} from "@kopek/core";
import { ExpiryQueue } from "./expiry-queue.js";
import type { ProjectStore } from "./project-store.js";
import type { ResourceStore } from "./resource-store.js";

type RecordState =
  | { readonly state: "in_progress"; readonly leaseToken: string | null; readonly leaseExpiresAt: number }
  | { readonly state: "completed"; readonly response: StoredResponse };

interface IdempotencyRow {
  readonly mapKey: string;
  readonly recordId: string;
  readonly projectId: string;
  readonly key: string;
  readonly fingerprint: string;
  /** Epoch milliseconds; fixed for the life of the record (API.md 3: 24 hours from the first request). */
  readonly expiresAt: number;
  current: RecordState;
}

// Idempotency keys are printable ASCII, so NUL cannot occur inside either part.
const mapKeyOf = (projectId: string, key: string) => `${projectId}\u0000${key}`;

// Frozen once, a stored response can be handed to every replay without a copy.
function frozenCopy(response: StoredResponse): StoredResponse {
  const { status, headers, body } = response;
  return Object.freeze({ status, headers: Object.freeze({ ...headers }), body });
}

function existing(row: IdempotencyRow): ExistingIdempotencyRecord {
  const { fingerprint, current } = row;
  return current.state === "completed"
    ? { state: "completed", fingerprint, response: current.response }
    : { state: "in_progress", fingerprint, leaseExpiresAt: new Date(current.leaseExpiresAt) };
}

/**
 * Idempotency records (the port's claim/complete/release/purge). Every method runs to the end
 * synchronously, so each check-and-set is atomic in one process without locks.
 */
export class IdempotencyStore {
  readonly #rows = new Map<string, IdempotencyRow>();
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
    if (claim.apiKeyId !== null && !this.#projects.keyHolds(claim.apiKeyId, claim.projectId)) {
      return { kind: "key_revoked" };
    }
    const now = claim.now.getTime();
    this.#purgeExpired(now, this.#purgePerClaim);
    const mapKey = mapKeyOf(claim.projectId, claim.key);
    const row = this.#rows.get(mapKey);
    if (row === undefined || row.expiresAt <= now) {
      const { recordId, projectId, key, fingerprint, leaseToken } = claim;
      const fresh: IdempotencyRow = {
        mapKey,
        recordId,
        projectId,
        key,
        fingerprint,
        expiresAt: claim.expiresAt.getTime(),
        current: { state: "in_progress", leaseToken, leaseExpiresAt: claim.leaseExpiresAt.getTime() },
      };
      this.#rows.set(mapKey, fresh);
      this.#expiry.push(fresh);
      return { kind: "claimed", recordId, takenOver: false };
    }
    const { current } = row;
    if (
      current.state === "in_progress" &&
      current.leaseExpiresAt <= now &&
      row.fingerprint === claim.fingerprint
    ) {
      // Taken over: the record id stays, so provider keys derived from it stay the same.
      row.current = {
        state: "in_progress",
        leaseToken: claim.leaseToken,
        leaseExpiresAt: claim.leaseExpiresAt.getTime(),
      };
      return { kind: "claimed", recordId: row.recordId, takenOver: true };
    }
    return { kind: "existing", record: existing(row) };
  }

  /** Stores the response and the resource together, or nothing when the lease is lost or the resource changed. */
  complete(completion: IdempotencyCompletion): "completed" | "lease_lost" | "conflict" {
    const row = this.#rows.get(mapKeyOf(completion.projectId, completion.key));
    if (row?.current.state !== "in_progress" || row.current.leaseToken !== completion.leaseToken) {
      return "lease_lost";
    }
    const { resource } = completion;
    if (resource !== null && !this.#resources.accepts(resource)) return "conflict";
    const response = frozenCopy(completion.response);
    if (resource !== null) this.#resources.store(resource);
    row.current = { state: "completed", response };
    return "completed";
  }

  release(release: IdempotencyRelease): void {
    const row = this.#rows.get(mapKeyOf(release.projectId, release.key));
    if (row?.current.state !== "in_progress" || row.current.leaseToken !== release.leaseToken) return;
    const leaseExpiresAt = Math.min(row.current.leaseExpiresAt, release.now.getTime());
    row.current = { state: "in_progress", leaseToken: null, leaseExpiresAt };
  }

  /** Deletes at most `limit` expired records; returns how many it deleted. */
  purge(now: Date, limit: number): number {
    const at = now.getTime();
    let deleted = this.#purgeExpired(at, limit);
    // Records that expire out of insertion order (a shorter TTL than those before) hide behind the queue's head.
    if (deleted < limit && !this.#expiry.ordered) {
      for (const [mapKey, row] of this.#rows) {
        if (deleted >= limit) break;
        if (row.expiresAt > at) continue;
        this.#rows.delete(mapKey);
        deleted += 1;
      }
    }
    return deleted;
  }

  /** The stored rows, for `inspect()`. */
  rows() {
    return [...this.#rows.values()].map(({ mapKey, current, expiresAt, ...row }) => ({
      ...row,
      state: current.state,
      leaseToken: current.state === "in_progress" ? current.leaseToken : null,
      leaseExpiresAt: current.state === "in_progress" ? new Date(current.leaseExpiresAt) : null,
      expiresAt: new Date(expiresAt),
      response:
        current.state === "completed"
          ? { ...current.response, headers: { ...current.response.headers } }
          : null,
    }));
  }

  // Pops expired rows off the queue's head. A row already replaced or deleted is skipped and not counted;
  // each queued row is popped once, so the work stays O(1) amortised per claim.
  #purgeExpired(now: number, limit: number): number {
    let deleted = 0;
    while (deleted < limit) {
      const row = this.#expiry.shiftExpired(now);
      if (row === undefined) break;
      if (this.#rows.get(row.mapKey) !== row) continue;
      this.#rows.delete(row.mapKey);
      deleted += 1;
    }
    return deleted;
  }
}
