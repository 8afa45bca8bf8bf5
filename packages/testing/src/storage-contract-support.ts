import { randomUUID } from "node:crypto";
import {
  type ApiKeyRecord,
  type ClaimedDelivery,
  createUuidV7Generator,
  type DeliveryAttempt,
  type DomainEvent,
  type EventType,
  type IdempotencyClaim,
  type IdempotencyCompletion,
  type InspectableStorage,
  type StorageError,
  type StoredResource,
  type StoredResponse,
} from "@kopek/core";
import type { ResultAsync } from "neverthrow";
import { samplePayment, sampleProject } from "./fixtures.js";

export type StorageFactory = () => Promise<InspectableStorage> | InspectableStorage;

export interface StorageContractOptions {
  /** The adapter encrypts `providerMethodRef` at rest: no plaintext may appear in any stored row. */
  readonly encryptsMethodTokens?: boolean;
  /** How many parallel calls the concurrency tests make. Default 50. */
  readonly concurrency?: number;
}

export const SECOND_MS = 1000;
export const LEASE_MS = 30 * SECOND_MS;
export const TTL_MS = 24 * 60 * 60 * SECOND_MS;

/** A fresh storage with one saved project; its id. */
export async function withProject(factory: StorageFactory): Promise<[InspectableStorage, string]> {
  const storage = await factory();
  const project = sampleProject();
  await unwrap(storage.saveProject(project));
  return [storage, project.id];
}

/** A live API key of the project, added to the storage. */
export async function addLiveKey(storage: InspectableStorage, projectId: string): Promise<ApiKeyRecord> {
  const key = {
    id: randomUUID(),
    projectId,
    sha256: randomUUID().replaceAll("-", "").repeat(2),
    createdAt: new Date(),
    revokedAt: null,
  };
  await unwrap(storage.addApiKey(key));
  return key;
}

/** The value of an `Ok`; an `Err` fails the test with its code. */
export async function unwrap<T>(result: ResultAsync<T, StorageError>): Promise<T> {
  const settled = await result;
  if (settled.isErr()) throw new Error(`storage failed: ${settled.error.code}: ${settled.error.message}`);
  return settled.value;
}

/** The error of an `Err`; an `Ok` fails the test. */
export async function unwrapErr<T>(result: ResultAsync<T, StorageError>): Promise<StorageError> {
  const settled = await result;
  if (settled.isOk()) throw new Error("expected a storage error, got success");
  return settled.error;
}

/** A claim on a fresh random key at `now`, with a 30 s lease and a 24 h lifetime. */
export function newClaim(
  projectId: string,
  now: number,
  overrides: Partial<IdempotencyClaim> = {},
): IdempotencyClaim {
  return {
    projectId,
    key: `key-${randomUUID()}`,
    fingerprint: randomUUID().replaceAll("-", "").repeat(2),
    recordId: randomUUID(),
    leaseToken: randomUUID(),
    now: new Date(now),
    leaseExpiresAt: new Date(now + LEASE_MS),
    expiresAt: new Date(now + TTL_MS),
    apiKeyId: null,
    ...overrides,
  };
}

/** The same key and fingerprint claimed again at `now` by another request (new record id and lease token). */
export function retryOf(claim: IdempotencyClaim, now: number, overrides: Partial<IdempotencyClaim> = {}) {
  return newClaim(claim.projectId, now, { key: claim.key, fingerprint: claim.fingerprint, ...overrides });
}

/** A 201 response whose body carries a random marker, so it can be found among stored rows. */
/** A completed record as storage answers it. */
export function completedRecord(fingerprint: string, response: StoredResponse) {
  return { state: "completed", fingerprint, response } as const;
}

export function sampleResponse(id: string = randomUUID()): StoredResponse {
  return {
    status: 201,
    headers: { "content-type": "application/json; charset=utf-8", location: `/v1/subscriptions/${id}` },
    body: JSON.stringify({ id, marker: randomUUID(), note: "Привет 🌍" }),
  };
}

export function completionOf(
  claim: IdempotencyClaim,
  resource: StoredResource | null,
  response: StoredResponse = sampleResponse(),
): IdempotencyCompletion {
  return {
    projectId: claim.projectId,
    key: claim.key,
    leaseToken: claim.leaseToken,
    response,
    resource,
    events: [],
    payments: [],
    now: claim.now,
  };
}

// Binary columns (bytea) are shown as hex and as text, so a plaintext secret stored as bytes is still found.
function stringifyRows(rows: unknown): string {
  return JSON.stringify(rows, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    if (raw instanceof Uint8Array) {
      const bytes = Buffer.from(raw);
      return `${bytes.toString("hex")} ${bytes.toString("utf8")}`;
    }
    return typeof value === "bigint" ? value.toString() : value;
  });
}

/** Every stored row, serialized, with Dates as ISO strings and bigints as digits. */
export async function serializedStorage(storage: InspectableStorage): Promise<string> {
  return stringifyRows(await storage.inspect());
}

/** The rows of `table` whose serialized form contains `needle`. */
export async function rowsContaining(storage: InspectableStorage, table: string, needle: string) {
  const rows = (await storage.inspect())[table];
  if (!rows) throw new Error(`inspect() has no table ${table}`);
  return rows.filter((row) => stringifyRows(row).includes(needle));
}

/** Stores `resource` the only way the port allows: as the outcome of a claimed idempotency key. */
export async function storeResource(
  storage: InspectableStorage,
  projectId: string,
  resource: StoredResource,
) {
  const claim = newClaim(projectId, Date.now());
  await unwrap(storage.claimIdempotencyKey(claim));
  await unwrap(storage.completeIdempotencyKey(completionOf(claim, resource)));
}

/** A new sample project, saved. */
export async function savedProject(storage: InspectableStorage) {
  const project = sampleProject();
  await unwrap(storage.saveProject(project));
  return project;
}

// Events' and delivery attempts' ids: UUIDv7, so those made later list as newer.
const outboxIds = createUuidV7Generator();

/** An event of `projectId` at `at` (epoch ms), its data in an order and script an adapter must keep. */
export function eventOf(projectId: string, type: EventType, at: number): DomainEvent {
  return {
    id: outboxIds.newId(),
    projectId,
    type,
    createdAt: new Date(at),
    data: { id: randomUUID(), note: "Привет 🌍 <&>", zeta: 1, alpha: [3, 1, 2] },
  };
}

/** The events, written as the outbox writes them: with a resource of their project (a new payment). */
export async function writeEvents(storage: InspectableStorage, projectId: string, events: DomainEvent[]) {
  await unwrap(storage.savePayment(samplePayment(projectId), events));
}

/** Leases every delivery due at `now` (another test's too, on a shared database); those of `events`. */
export async function claimOf(storage: InspectableStorage, events: readonly DomainEvent[], now: number) {
  const ours = new Set(events.map((e) => e.id));
  const claimed = await unwrap(
    storage.claimDueDeliveries({
      now: new Date(now),
      limit: 10_000,
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date(now + 60_000),
    }),
  );
  return claimed.filter((d) => ours.has(d.event.id));
}

/** An attempt at a claimed delivery under its lease: delivered (200), retry or failed (503 by default). */
export function attemptOf(
  claimed: ClaimedDelivery | undefined,
  outcome: DeliveryAttempt["outcome"],
  at: number,
  overrides: Partial<DeliveryAttempt> = {},
): DeliveryAttempt {
  if (claimed === undefined) throw new Error("nothing claimed");
  return {
    id: outboxIds.newId(),
    projectId: claimed.endpoint.projectId,
    eventId: claimed.event.id,
    endpointId: claimed.endpoint.id,
    leaseToken: claimed.leaseToken,
    at: new Date(at),
    outcome,
    nextAttemptAt: outcome === "retry" ? new Date(at + 1000) : null,
    status: outcome === "delivered" ? 200 : 503,
    error: outcome === "delivered" ? null : "HTTP 503 from the endpoint",
    durationMs: 250,
    ...overrides,
  };
}
