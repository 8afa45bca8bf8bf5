import type { ResultAsync } from "neverthrow";
import type { PaymentMethod } from "../domain/model.js";
import type { ProviderError, ProviderSavedMethod } from "./provider-answers.js";

/**
 * Saving a payer's method with no payment at all (API.md 11.5), where the provider documents it
 * (YooKassa `POST /v3/payment_methods`, T-Bank `AddCustomer` + `AddCard`) and the project turned it on.
 * A provider without it saves a method only with a payment: Kopek's verification payment, refunded at once.
 */
export interface MethodSaves {
  /**
   * The methods saved this way: each one also saved with a payment (`saveMethod`) and charged stored
   * (`storedMethodCharge`). Another method goes the verification-payment way.
   */
  readonly methods: readonly PaymentMethod[];
  /**
   * Starts a save the payer confirms at `confirmationUrl` (a card form at the provider). Where the
   * provider keys requests, the same `idempotencyKey` answers the same save; elsewhere a repeat starts
   * another save, which moves no money. An error: no save was started that Kopek can know of.
   */
  start(request: MethodSaveRequest): ResultAsync<StartedMethodSave, ProviderError>;
  /** How a save stands at the provider now: the verified word on which Kopek puts the method on (10.1). */
  get(saveRef: string): ResultAsync<MethodSaveState, ProviderError>;
}

export interface MethodSaveRequest {
  /** Kopek's id of the save (a UUID), kept by the provider with its own where it keeps metadata. */
  readonly saveId: string;
  readonly method: PaymentMethod;
  /**
   * Where the provider sends the payer back once they confirmed or gave up. A provider that sends the
   * payer to a fixed address of its own settings (T-Bank's "Success Add Card URL") ignores it.
   */
  readonly returnUrl: string;
  /** Derived from the save's id: the same across retries of one save. */
  readonly idempotencyKey: string;
}

export interface StartedMethodSave {
  /** The provider's name of the save, what `get` takes (never shown: it may name the method). */
  readonly saveRef: string;
  /** Where the payer confirms the save. */
  readonly confirmationUrl: string;
}

/**
 * A save as the provider says it stands: `pending` until the payer confirmed or gave up; `saved` with
 * the method chargeable later (`chargeStoredMethod` takes its `ref`); `failed` when nothing was saved
 * (declined, abandoned, expired) — final.
 */
export type MethodSaveState =
  | { readonly status: "pending" }
  | { readonly status: "saved"; readonly savedMethod: ProviderSavedMethod }
  | { readonly status: "failed" };
