import type { KopekError } from "../domain/errors.js";
import type { Payment } from "../domain/model.js";
import type { Project } from "../domain/project.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { OnAmountMismatch } from "../payments/amount-rule.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { StoredResource } from "../ports/idempotency-storage.js";
import type { PaymentProvider, ProviderError } from "../ports/payment-provider.js";
import type { Storage } from "../ports/storage.js";
import type { StorageError } from "../ports/storage-error.js";
import type { WebhookUrlProblem } from "../ports/webhook-transport.js";

/** What a use case runs with: the caller's project and provider, its claimed idempotency record, the time. */
export interface Execution {
  readonly storage: Storage;
  readonly project: Project;
  readonly provider: PaymentProvider;
  /** The claimed idempotency record. Also the new resource's id, so a re-execution makes the same one. */
  readonly recordId: string;
  readonly now: Date;
  /** Base URL of the hosted payment pages, without a trailing slash. */
  readonly publicUrl: string;
  /** For the ids of the events the operation causes. */
  readonly ids: IdGenerator;
  /** How long a create waits for a charge the provider answered `pending` before answering (API.md 10.5). */
  readonly pendingChargeWaitMs: number;
  /** Told about every provider word refused for its amount or currency (API.md 10.1). */
  readonly onAmountMismatch?: OnAmountMismatch | undefined;
  /** The outbound guard's rule on a webhook endpoint's URL (API.md 12). */
  readonly webhookUrlProblem: WebhookUrlProblem;
}

/** What an operation produced: the resource to store with the response, and the response itself. */
export interface Outcome {
  /** 201 for a create, 200 for a state change. */
  readonly status: 200 | 201;
  /** Null when the operation stored its resource itself as it ran (a refund's reservation). */
  readonly resource: StoredResource | null;
  /** Set for a create: the new resource's path. */
  readonly location?: string;
  readonly body: unknown;
  /**
   * What the key stores and a replay answers, when it differs from `body`: a secret shown once is
   * answered now but never stored in clear with the key (API.md 12).
   */
  readonly replayBody?: unknown;
  /** Stored with the resource, in the same atomic step (the outbox). */
  readonly events?: readonly DomainEvent[];
  /** New payments it recorded (a subscription's first charge), stored with the resource. */
  readonly payments?: readonly Payment[];
  /**
   * The answer when storage refuses the new resource as a `duplicate` (a value only one resource may
   * hold is taken meanwhile): not stored, so the key is released (API.md 3, like every 409).
   */
  readonly onDuplicate?: KopekError;
}

/** Derives the provider idempotency key of one step of one record: the same across re-executions. */
export function providerKey(execution: Execution, step: string): string {
  return `kopek:${execution.recordId}:${step}`;
}

export function fromProviderError(error: ProviderError): KopekError {
  switch (error.code) {
    case "declined":
      return { code: "payment_declined", detail: error.message };
    case "unavailable":
      return { code: "provider_unavailable", cause: error };
    case "failed":
      return { code: "provider_error", cause: error };
  }
}

export function fromStorageError(error: StorageError): KopekError {
  return error.code === "storage_unavailable"
    ? { code: "storage_unavailable", cause: error }
    : { code: "internal_error", cause: error };
}
