import type { ResultAsync } from "neverthrow";
import type { Invoice, InvoiceStatus, Project, Subscription } from "../domain.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { WebhookStorage } from "./webhook-storage.js";

/**
 * Kopek's storage port. Every method is required; every failure is a `StorageError`, never a thrown
 * driver error. Adapters: `@kopek/storage-memory`, `@kopek/storage-postgres`.
 */
export interface Storage extends WebhookStorage {
  /** Creates the project, or updates its name and provider settings when the id exists. */
  saveProject(project: Project): ResultAsync<void, StorageError>;
  /** The project with this id, or null. */
  findProject(projectId: string): ResultAsync<Project | null, StorageError>;
  /** Every project, oldest first. */
  listProjects(): ResultAsync<readonly Project[], StorageError>;
  /** Records an API key by the SHA-256 of the whole key; an existing hash is left as it is. */
  addApiKey(key: ApiKeyRecord): ResultAsync<void, StorageError>;
  /** Marks the key revoked; false when no such key exists. */
  revokeApiKey(sha256: string, revokedAt: Date): ResultAsync<boolean, StorageError>;
  /** The API keys of a project (hashes only), oldest first. */
  listApiKeys(projectId: string): ResultAsync<readonly ApiKeyRecord[], StorageError>;
  /** The project that owns a live (not revoked) key with this hash, or null. */
  findProjectByKeyHash(sha256: string): ResultAsync<KeyOwner | null, StorageError>;

  /**
   * Atomically claims an idempotency key (API.md 3). Claims when there is no live record, when the
   * live record expired (`expiresAt <= now`: it is replaced by `claim.recordId`), or when the live
   * record is in progress with an expired lease and the same fingerprint (taken over: the record id
   * is kept, so derived provider keys stay the same). Otherwise returns the existing record.
   */
  claimIdempotencyKey(claim: IdempotencyClaim): ResultAsync<ClaimOutcome, StorageError>;
  /**
   * Completes a claimed key: stores the response and, when given, the resource, in one atomic step.
   * Fails with `lease_lost` (storing nothing) when `leaseToken` no longer holds the key. A resource
   * with `version` 1 is created; a later version replaces the stored one only when that one's version
   * is exactly one less, else the completion fails with `conflict` and stores nothing. Its `events`
   * are stored (and fanned out to the project's enabled endpoints) exactly when the resource is.
   */
  completeIdempotencyKey(completion: IdempotencyCompletion): ResultAsync<void, StorageError>;
  /** Ends the lease of a claimed key now, so a retry with the same body executes again. */
  releaseIdempotencyKey(release: IdempotencyRelease): ResultAsync<void, StorageError>;
  /**
   * Deletes a record that `leaseToken` claimed afresh and that is still in progress: the request never
   * reached its operation (its body failed validation), so it leaves no trace and the key may be used
   * with another body. A record the lease no longer holds is left as it is.
   */
  withdrawIdempotencyClaim(withdrawal: IdempotencyWithdrawal): ResultAsync<void, StorageError>;
  /**
   * A write that needs no lease, in one atomic step (one round trip): when the key is free (no record,
   * or an expired one, which is replaced), stores what `create.build()` makes (the response, the
   * resource and its events) as the key's completed record and answers `created`; when `build` makes
   * nothing (null), stores nothing and answers `not_built`. Otherwise it writes nothing and answers as
   * `claimIdempotencyKey` would: `existing` (in progress or completed) or `key_revoked`. Only for
   * writes whose execution touches nothing outside storage: an adapter may call `build` before it knows
   * whether the key is free, and then discard what it made.
   */
  createOnce(create: IdempotentCreate): ResultAsync<CreateOnceOutcome, StorageError>;
  /** Deletes at most `limit` records whose `expiresAt <= now`; returns how many it deleted. */
  purgeExpiredIdempotencyKeys(now: Date, limit: number): ResultAsync<number, StorageError>;

  /** The subscription with this id in this project, or null. */
  findSubscription(projectId: string, subscriptionId: string): ResultAsync<Subscription | null, StorageError>;
  /** The invoice with this id in this project, or null. */
  findInvoice(projectId: string, invoiceId: string): ResultAsync<Invoice | null, StorageError>;

  /** A project's subscriptions, newest first (by id), only those older than `page.before` when set. */
  listSubscriptions(
    projectId: string,
    page: ResourcePage,
  ): ResultAsync<readonly Subscription[], StorageError>;
  /**
   * A project's invoices, newest first (by id). `page.status` filters by the status as read at
   * `page.now`: an invoice still `created` whose `expiresAt <= now` counts as `expired`.
   */
  listInvoices(projectId: string, page: InvoicePage): ResultAsync<readonly Invoice[], StorageError>;
  /**
   * Leases up to `limit` subscriptions that are `active` or `past_due`, whose `nextAttemptAt <= now`
   * and whose renewal lease is free or expired, earliest first; bumps each one's version and returns
   * them as stored. Two workers never hold the same subscription at once.
   */
  claimDueSubscriptions(claim: RenewalClaim): ResultAsync<readonly Subscription[], StorageError>;
  /**
   * Replaces a subscription whose stored version is exactly one less than `subscription.version`,
   * and frees its renewal lease, storing `events` with it; fails with `conflict` (writing nothing,
   * events included) otherwise.
   */
  saveSubscription(
    subscription: Subscription,
    events: readonly DomainEvent[],
  ): ResultAsync<void, StorageError>;
  /** Replaces an invoice exactly as `saveSubscription` does (version n over n−1), with its events. */
  saveInvoice(invoice: Invoice, events: readonly DomainEvent[]): ResultAsync<void, StorageError>;
  /** The invoice with this id in any project, or null: the hosted payment page knows only the id. */
  findInvoiceById(invoiceId: string): ResultAsync<Invoice | null, StorageError>;
  /** Up to `limit` invoices stored as `created` whose `expiresAt <= now`, earliest expiry first. */
  listLapsedInvoices(now: Date, limit: number): ResultAsync<readonly Invoice[], StorageError>;

  /** Answers when the storage can serve requests (readiness). */
  checkHealth(): ResultAsync<void, StorageError>;
}

export interface StorageError {
  /** `conflict`: a write based on a stale read (version check); the caller re-reads and retries. */
  readonly code: "storage_unavailable" | "lease_lost" | "conflict" | "storage_failed";
  /** For the server log only; never shown to a client. */
  readonly message: string;
  readonly cause?: unknown;
}

export interface ResourcePage {
  /** At most this many resources. */
  readonly limit: number;
  /** Only resources with an id lower than this one (older: ids are UUIDv7). */
  readonly before: string | null;
}

export interface InvoicePage extends ResourcePage {
  readonly status: InvoiceStatus | null;
  readonly now: Date;
}

export interface RenewalClaim {
  readonly now: Date;
  readonly limit: number;
  readonly leaseToken: string;
  readonly leaseExpiresAt: Date;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly projectId: string;
  /** SHA-256 hex of the whole key. The key itself is never stored. */
  readonly sha256: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export interface KeyOwner {
  readonly project: Project;
  readonly keyId: string;
}

/** A response as it is replayed: status, the headers that belong to it, and the exact body bytes. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface IdempotencyClaim {
  readonly projectId: string;
  readonly key: string;
  readonly fingerprint: string;
  /** Id for the record if this claim creates one. */
  readonly recordId: string;
  /** Proof of ownership that completion and release must present. */
  readonly leaseToken: string;
  readonly now: Date;
  readonly leaseExpiresAt: Date;
  readonly expiresAt: Date;
  /**
   * The id of the API key the request authenticated with. The claim holds only while that key
   * belongs to `projectId` and is not revoked, judged in the same atomic step: otherwise nothing is
   * written and the outcome is `key_revoked`. This is what lets Kopek cache key lookups and still
   * refuse a revoked key on its very next write. Null: no key to check.
   */
  readonly apiKeyId: string | null;
}

export type ClaimOutcome =
  | { readonly kind: "claimed"; readonly recordId: string; readonly takenOver: boolean }
  | { readonly kind: "existing"; readonly record: ExistingIdempotencyRecord }
  /** The claim's API key is revoked or not the project's: nothing was written. */
  | { readonly kind: "key_revoked" };

export type ExistingIdempotencyRecord =
  | { readonly state: "in_progress"; readonly fingerprint: string; readonly leaseExpiresAt: Date }
  | { readonly state: "completed"; readonly fingerprint: string; readonly response: StoredResponse };

export type StoredResource =
  | { readonly kind: "subscription"; readonly subscription: Subscription }
  | { readonly kind: "invoice"; readonly invoice: Invoice };

export interface IdempotencyCompletion {
  readonly projectId: string;
  readonly key: string;
  readonly leaseToken: string;
  readonly response: StoredResponse;
  readonly resource: StoredResource | null;
  /** Events caused by the resource's change (none when omitted); only with a resource. */
  readonly events?: readonly DomainEvent[];
  readonly now: Date;
}

export interface IdempotencyRelease {
  readonly projectId: string;
  readonly key: string;
  readonly leaseToken: string;
  readonly now: Date;
}

/** What `createOnce` needs: the key and the claim's fields, without a lease. */
export interface IdempotentCreate
  extends Pick<
    IdempotencyClaim,
    "projectId" | "key" | "fingerprint" | "recordId" | "now" | "expiresAt" | "apiKeyId"
  > {
  /**
   * What to store under the key, made from the request alone: called at most once, synchronously;
   * null when the request is refused and leaves no trace. Its caller keeps no reference to the
   * resource and events it returns, so an adapter may keep them as they are; the response is also the
   * caller's answer.
   */
  readonly build: () => IdempotentWrite | null;
}

/** The record's response, and the resource (with the events its creation caused) stored with it. */
export interface IdempotentWrite {
  readonly response: StoredResponse;
  readonly resource: StoredResource | null;
  readonly events: readonly DomainEvent[];
}

export type CreateOnceOutcome =
  | { readonly kind: "created" }
  /** The key was free and `build` made nothing: nothing was written. */
  | { readonly kind: "not_built" }
  | { readonly kind: "existing"; readonly record: ExistingIdempotencyRecord }
  /** The API key is revoked or not the project's: nothing was written. */
  | { readonly kind: "key_revoked" };

export interface IdempotencyWithdrawal {
  readonly projectId: string;
  readonly key: string;
  readonly leaseToken: string;
}

/**
 * The back door the contract suite uses to see what an adapter really persisted: every stored row,
 * as plain values, by table. Never used by Kopek itself.
 */
export interface InspectableStorage extends Storage {
  inspect(): Promise<Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>>;
}
