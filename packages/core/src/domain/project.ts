import type { PaymentMethod } from "./model.js";

/** A project (a merchant's account in Kopek) and how its payment provider is configured. */

export interface Project {
  readonly id: string;
  /** The operator's name for the project (CLI, logs); payers see it only without a `displayName`. */
  readonly name: string;
  /** The merchant's name as payers see it on the payment page (1–100 printable characters). */
  readonly displayName?: string;
  /** Who the seller is, shown to payers on Kopek's pages when set (issue 42: a page a Russian payer trusts). */
  readonly seller?: SellerDetails;
  readonly provider: ProviderSettings;
  readonly createdAt: Date;
  /**
   * When `kopek projects delete --force` marked it deleted (API.md 11.1: its money records stay, so it
   * does); absent while it is not. Set only by `markProjectDeleted`: `saveProject` ignores it.
   */
  readonly deletedAt?: Date;
}

/**
 * The seller's details a payer looks for before paying (Russian law asks a seller to name itself: the
 * legal name, ИНН, contacts, the offer and the privacy policy). Each optional; the pages show what is set.
 */
export interface SellerDetails {
  /** The legal name: `ООО «Зерно»`, `ИП Иванов Иван Иванович`. */
  readonly legalName?: string;
  /** ИНН: 10 digits (an organisation) or 12 (a person), check digits valid (`innProblem`). */
  readonly inn?: string;
  readonly email?: string;
  /** `+` and the digits, as `+79991234567`. */
  readonly phone?: string;
  /** The public offer (договор-оферта): an https:// URL. */
  readonly offerUrl?: string;
  /** The privacy policy (152-FZ): an https:// URL. */
  readonly privacyUrl?: string;
}

/** How a project's payment provider is configured (projects file, CLI, storage). */
export type ProviderSettings =
  | SandboxProviderSettings
  | HttpProviderSettings
  | YooKassaProviderSettings
  | TBankProviderSettings;

/** The sandbox, in the server's process. */
export interface SandboxProviderSettings {
  readonly kind: "sandbox";
  /** Whether stored methods can be charged (API.md 7). */
  readonly storedMethodCharge: boolean;
}

/** A provider service reached over HTTP (`@kopek/provider-http`), e.g. `kopek sandbox-provider`. */
export interface HttpProviderSettings {
  readonly kind: "http";
  /** Base URL of the service. */
  readonly url: string;
  /** Whether stored methods can be charged through it. */
  readonly storedMethodCharge: boolean;
  /** How long a call may take before it counts as an outage; null: the adapter's default. */
  readonly timeoutMs: number | null;
}

/**
 * YooKassa (API v3). The secret key is part of the project, so a worker on another machine can charge
 * with it: adapters keep it encrypted at rest where they can, and nothing ever shows or logs it.
 */
export interface YooKassaProviderSettings {
  readonly kind: "yookassa";
  /** The shop's id (`shopId` in YooKassa's dashboard), the user name of Basic auth. */
  readonly shopId: string;
  /** The shop's secret key, the password of Basic auth. */
  readonly secretKey: string;
  /** Methods whose stored form the shop's contract lets Kopek charge without the payer. */
  readonly storedMethods: readonly PaymentMethod[];
  /** Where the API is reached instead of YooKassa's own (tests, emulators); null: YooKassa's. */
  readonly apiUrl: string | null;
  /**
   * Save a payer's new bank card with no payment (`POST /v3/payment_methods`, API.md 11.5) instead of a
   * verification payment. YooKassa enables it per shop (a real shop asks its manager; its pages differ on
   * test shops: provider-yookassa README), so it is off unless set (absent: off).
   */
  readonly saveWithoutPayment?: boolean;
}

/**
 * T-Bank (Tinkoff) acquiring API v2. The terminal's password signs every request and verifies every
 * notification; like YooKassa's secret key it is part of the project, kept encrypted at rest and never shown.
 */
export interface TBankProviderSettings {
  readonly kind: "tbank";
  /** The terminal's `TerminalKey` (T-Bank's dashboard). */
  readonly terminalKey: string;
  /** The terminal's password, which signs requests' and notifications' `Token`. */
  readonly password: string;
  /** Methods whose stored form the terminal's contract lets Kopek charge without the payer. */
  readonly storedMethods: readonly PaymentMethod[];
  /** Where the API is reached instead of T-Bank's own (tests, emulators); null: T-Bank's. */
  readonly apiUrl: string | null;
  /**
   * Save a payer's new card with no payment (`AddCustomer` + `AddCard`, API.md 11.5) instead of a
   * verification payment. T-Bank then sends the payer to the terminal's own "Success Add Card URL",
   * which the operator points at Kopek's `/method/return`, so it is off unless set (absent: off).
   */
  readonly saveWithoutPayment?: boolean;
}
