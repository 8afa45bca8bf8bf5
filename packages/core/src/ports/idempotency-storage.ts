import type { ResultAsync } from "neverthrow";
import type { Invoice, Payment, Subscription } from "../domain/model.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { StorageError } from "./storage-error.js";

/**
 * Idempotency records (API.md 3). Core validates a request and, where it can, builds its outcome
 * before it asks storage anything; storage only stores plain data and answers what a key holds. Every
 * method that writes under a key also checks the request's API key in the same atomic step
 * (`apiKeyId`): a revoked key writes nothing and gets `key_revoked`.
 */
export interface IdempotencyStorage {
  /**
   * Stores a finished write in one atomic step when the key is free (no record, or an expired one,
   * which is replaced): the completed record with its response, and the resource with its events.
   * Otherwise writes nothing and answers what the key holds. For writes that touch nothing outside
   * storage, so they need no lease: today a new invoice (with no provider call), or a refusal stored
   * without a resource.
   */
  createOnce(record: NewIdempotencyRecord, write: OneStepWrite): ResultAsync<CreateOnceOutcome, StorageError>;
  /**
   * Claims a key for a write that calls the provider: a lease that completion must present. Claims
   * when the key is free, or when it holds an in-progress record with an expired lease and the same
   * fingerprint (taken over: the record id is kept, so derived provider keys stay the same).
   */
  claimIdempotencyKey(claim: IdempotencyClaim): ResultAsync<ClaimOutcome, StorageError>;
  /**
   * Completes a claimed key: the response and the write's resource and events, in one atomic step.
   * `lease_lost` (storing nothing) when `leaseToken` no longer holds the key; `conflict` (storing
   * nothing) when the resource's stored version is not exactly one less than the new one's.
   */
  completeIdempotencyKey(completion: IdempotencyCompletion): ResultAsync<void, StorageError>;
  /** Ends the lease of a claimed key now, so a retry with the same body executes again. */
  releaseIdempotencyKey(release: IdempotencyRelease): ResultAsync<void, StorageError>;
  /** What a key holds, writing nothing: for a request refused before it could be stored, or one looked up first. */
  findIdempotencyRecord(lookup: IdempotencyLookup): ResultAsync<LookupOutcome, StorageError>;
  /**
   * True when `findIdempotencyRecord` answers from this process's memory, with no round trip: core
   * then looks every write's key up before it validates the body, and answers a retry from its record
   * without validating or building. False for a database, where the write's own statement
   * (`createOnce`, the claim) answers what the key holds in the same round trip.
   */
  readonly lookupsAreLocal: boolean;
  /** Deletes at most `limit` records whose `expiresAt <= now`; returns how many it deleted. */
  purgeExpiredIdempotencyKeys(now: Date, limit: number): ResultAsync<number, StorageError>;
}

/** A key in a project, read at `now`, by a request authenticated with `apiKeyId` (null: none to check). */
export interface IdempotencyLookup {
  readonly projectId: string;
  readonly key: string;
  readonly now: Date;
  /**
   * The id of the API key the request authenticated with: the answer holds only while that key
   * belongs to `projectId` and is not revoked, judged in the same atomic step. This is what lets Kopek
   * cache key lookups and still refuse a revoked key on its very next write.
   */
  readonly apiKeyId: string | null;
}

/** The record a new write creates under its key. */
export interface NewIdempotencyRecord extends IdempotencyLookup {
  /** SHA-256 over the method, path and canonical body (`fingerprintRequest`). */
  readonly fingerprint: string;
  /** The record's id; also the new resource's id. */
  readonly recordId: string;
  /** When the key is forgotten: 24 hours from the first request (API.md 3). */
  readonly expiresAt: Date;
  /**
   * SHA-256 over the method, path and body exactly as core received them (`sentDigest`), given when
   * storage looks keys up locally: kept with the record and answered with it once completed, so a retry
   * of the same bytes is replayed without its body being parsed (equal digests, equal fingerprints).
   */
  readonly sentDigest?: string | undefined;
}

export interface IdempotencyClaim extends NewIdempotencyRecord {
  /** Proof of ownership that completion and release must present. */
  readonly leaseToken: string;
  readonly leaseExpiresAt: Date;
}

/** A response as it is replayed: status, the headers that belong to it, and the exact body bytes. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type StoredResource =
  | { readonly kind: "subscription"; readonly subscription: Subscription }
  | { readonly kind: "invoice"; readonly invoice: Invoice };

/** What a write stores under its key: the response, and the resource with the events it caused. */
export interface IdempotentWrite {
  readonly response: StoredResponse;
  /** Null for an outcome stored without a resource (a declined charge, say). */
  readonly resource: StoredResource | null;
  /** Stored (and fanned out to the project's enabled endpoints) exactly when the resource is. */
  readonly events: readonly DomainEvent[];
  /** New payments the write recorded (a subscription's first charge), stored exactly when the resource is. */
  readonly payments: readonly Payment[];
}

/** What `createOnce` stores: a new invoice, or a response without a resource. */
export interface OneStepWrite extends IdempotentWrite {
  readonly resource: { readonly kind: "invoice"; readonly invoice: Invoice } | null;
  /** None: a payment always involves the provider, which a one-step write never calls. */
  readonly payments: readonly [];
}

export type ExistingIdempotencyRecord =
  | { readonly state: "in_progress"; readonly fingerprint: string; readonly leaseExpiresAt: Date }
  | {
      readonly state: "completed";
      readonly fingerprint: string;
      /** The `sentDigest` the record was created with, where storage keeps it. */
      readonly sentDigest?: string | undefined;
      readonly response: StoredResponse;
    };

/** The key was free and the write is stored, or what the key holds (nothing was written). */
export type CreateOnceOutcome =
  | { readonly kind: "created" }
  | { readonly kind: "existing"; readonly record: ExistingIdempotencyRecord }
  /** The request's API key is revoked or not the project's. */
  | { readonly kind: "key_revoked" };

/** What a key holds: nothing (no record, or an expired one), a record, or a refused API key. */
export type LookupOutcome =
  | { readonly kind: "free" }
  | { readonly kind: "existing"; readonly record: ExistingIdempotencyRecord }
  | { readonly kind: "key_revoked" };

export type ClaimOutcome =
  | { readonly kind: "claimed"; readonly recordId: string; readonly takenOver: boolean }
  | { readonly kind: "existing"; readonly record: ExistingIdempotencyRecord }
  | { readonly kind: "key_revoked" };

export interface IdempotencyCompletion extends IdempotentWrite {
  readonly projectId: string;
  readonly key: string;
  readonly leaseToken: string;
  readonly now: Date;
}

export interface IdempotencyRelease {
  readonly projectId: string;
  readonly key: string;
  readonly leaseToken: string;
  readonly now: Date;
}
