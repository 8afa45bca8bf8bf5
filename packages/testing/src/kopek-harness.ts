import {
  type AmountMismatch,
  createKopek,
  createRenewalWorker,
  createUuidV7Generator,
  generateApiKey,
  hashApiKey,
  type InspectableStorage,
  type Kopek,
  type KopekResponse,
  type MethodSaves,
  type OnAmountMismatch,
  type PaymentMethod,
  type PaymentProvider,
  type Project,
  type ProviderNotification,
  type ProviderRefund,
  type Receipt,
  type RefundRequest,
  type RenewalWorker,
  type RenewalWorkerOptions,
} from "@kopek/core";
import { err, errAsync, okAsync, ResultAsync } from "neverthrow";
import { sampleProject } from "./fixtures.js";
import { type ManualClock, manualClock } from "./manual-clock.js";
import { createMoneySkew, type MoneySkew } from "./money-skew.js";
import { type StorageFaults, withStorageFaults } from "./storage-faults.js";

export { type ManualClock, type MoneySkew, manualClock };

/** A provider the suite can count real charges on (e.g. the sandbox and its ledger). */
export interface CountingProvider extends PaymentProvider {
  /** Charges the provider really made (its idempotency keys deduplicate repeats). */
  chargesMade(): number;
  /** The provider's ids of the charges it really made, oldest first. */
  chargeIds(): readonly string[];
  /** The provider's ids of the payments it made for payers to confirm (`createPayment`), oldest first. */
  paymentIds(): readonly string[];
  /** Every refund it made, oldest first, as it stands now: its books, to hold Kopek's records against. */
  refundsMade(): readonly ProviderRefund[];
  /** The payer's part at the provider: confirms (or declines) a payment made by `createPayment`. */
  confirm(providerPaymentId: string, decision: "succeed" | "decline"): void;
  /** The notification the provider would POST about a payment. */
  notificationOf(providerPaymentId: string): ProviderNotification;
  /** The 54-FZ receipt each charge it made came with (null: none), oldest first: what it really got. */
  chargeReceipts(): readonly (Receipt | null)[];
  /** The same for the payments it made for payers to confirm (`createPayment`). */
  paymentReceipts(): readonly (Receipt | null)[];
  /** The same for the refunds it made. */
  refundReceipts(): readonly (Receipt | null)[];
}

export interface KopekContractOptions {
  /** Fresh storage for each test. */
  readonly createStorage: () => Promise<InspectableStorage> | InspectableStorage;
  /** A fresh provider for each test; `storedMethodCharge` as API.md 7. */
  readonly createProvider: (options: { storedMethodCharge: boolean }) => CountingProvider;
  /** A ref the provider declines. */
  readonly declinedRef: string;
}

/**
 * What a test makes the next charge do: `decline`; `outage`, not made and Kopek hears an outage;
 * `charge-then-outage`, made and Kopek hears nothing but an outage (an unknown outcome);
 * `charge-then-hang`, made and Kopek never hears back (a crash); `hold`, made and answered only when
 * the test calls `releaseHeldCharges`.
 */
export type ChargeFault = "decline" | "outage" | "charge-then-outage" | "charge-then-hang" | "hold";

/**
 * What a test makes the next refund do: `outage`, not made and Kopek hears an outage;
 * `refund-then-outage`, made and Kopek hears an outage (an unknown outcome); `refuse`, the provider
 * refuses it; `pending`, made and answered pending (the provider's later word is its real one).
 */
export type RefundFault = "outage" | "refund-then-outage" | "refuse" | "pending";

export interface KopekHarness {
  readonly kopek: Kopek;
  readonly storage: InspectableStorage;
  /** Makes the storage's next writes of a kind fail (Kopek and its workers use this storage). */
  readonly storageFaults: StorageFaults;
  readonly clock: ManualClock;
  readonly project: Project;
  readonly apiKey: string;
  readonly provider: CountingProvider;
  /** How often Kopek asked the provider to charge. */
  chargeCalls(): number;
  /** How often Kopek asked the provider for a payment link. */
  linkCalls(): number;
  /** Injects a fault into the next charge calls, in order. */
  injectChargeFaults(...faults: ChargeFault[]): void;
  /** The next createPayment is made at the provider, and Kopek hears nothing but an outage. */
  loseNextCreatePayment(): void;
  /** Injects a fault into the next refund calls, in order. */
  injectRefundFaults(...faults: RefundFault[]): void;
  /** How often Kopek asked the provider to refund. */
  refundCalls(): number;
  /** Every refund ask Kopek made, oldest first, as the provider got it (with `mayHaveBeenSent`). */
  refundRequests(): readonly RefundRequest[];
  /** Lets every charge held by a "hold" fault answer. */
  releaseHeldCharges(): void;
  /**
   * From now on every answer about a payment, a charge or a refund names other money than Kopek asked
   * for (`null`: the provider's own money again).
   */
  misstateMoney(skew: MoneySkew | null): void;
  /** The words Kopek refused for their money (API.md 10.1), as its `onAmountMismatch` was told, oldest first. */
  amountMismatches(): readonly AmountMismatch[];
  /** The hook to give a reconciler a test makes itself, so its refusals are counted too. */
  readonly onAmountMismatch: OnAmountMismatch;
  call(path: string, body: unknown, idempotencyKey?: string, apiKey?: string): Promise<KopekResponse>;
  get(path: string, query?: Record<string, string>): Promise<KopekResponse>;
  /** A renewal worker over the same storage, provider and clock. */
  worker(options?: Partial<RenewalWorkerOptions>): RenewalWorker;
}

export interface HarnessSettings {
  readonly storedMethodCharge?: boolean;
  readonly leaseMs?: number;
  /** Where the provider's payers pay (its `capabilities.paymentPage`); the provider's own by default. */
  readonly paymentPage?: "provider" | "kopek";
  /** The methods it accepts for invoices (its `capabilities.methods`); the provider's own by default. */
  readonly methods?: readonly PaymentMethod[];
  /** How long a create waits for a pending first charge (KopekOptions); Kopek's default when omitted. */
  readonly pendingChargeWaitMs?: number;
  /** Whether it takes 54-FZ receipts (its `capabilities.receipts`); the provider's own by default. */
  readonly receipts?: boolean;
  /** How it saves a payer's method with no payment (API.md 11.5); none by default. */
  readonly methodSaves?: MethodSaves;
}

export async function createHarness(
  options: KopekContractOptions,
  settings: HarnessSettings = {},
): Promise<KopekHarness> {
  const storedMethodCharge = settings.storedMethodCharge ?? true;
  const { storage, faults: storageFaults } = withStorageFaults(await options.createStorage());
  const clock = manualClock();
  const real = options.createProvider({ storedMethodCharge });
  const faults: ChargeFault[] = [];
  const refundFaults: RefundFault[] = [];
  let refundCalls = 0;
  const refundRequests: RefundRequest[] = [];
  let chargeCalls = 0;
  let loseNextCreate = false;
  let linkCalls = 0;
  const money = createMoneySkew();
  const { word, onAmountMismatch } = money;
  let releaseHeld = () => {};
  const held = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  const provider: CountingProvider = {
    capabilities: {
      ...real.capabilities,
      ...(settings.paymentPage === undefined ? {} : { paymentPage: settings.paymentPage }),
      ...(settings.methods === undefined ? {} : { methods: settings.methods }),
      ...(settings.receipts === undefined ? {} : { receipts: settings.receipts }),
    },
    ...(settings.methodSaves === undefined ? {} : { methodSaves: settings.methodSaves }),
    describeStoredMethod: (request) => real.describeStoredMethod(request),
    createPaymentLink: (request) => {
      linkCalls += 1;
      return real.createPaymentLink(request);
    },
    chargesMade: () => real.chargesMade(),
    chargeIds: () => real.chargeIds(),
    paymentIds: () => real.paymentIds(),
    refundsMade: () => real.refundsMade(),
    chargeReceipts: () => real.chargeReceipts(),
    paymentReceipts: () => real.paymentReceipts(),
    refundReceipts: () => real.refundReceipts(),
    confirm: (providerPaymentId, decision) => real.confirm(providerPaymentId, decision),
    createPayment: (request) => {
      if (!loseNextCreate) return word(real.createPayment(request));
      loseNextCreate = false;
      const made = Promise.resolve(real.createPayment(request));
      return new ResultAsync(
        made.then(() => err({ code: "unavailable" as const, message: "injected: no answer" })),
      );
    },
    getPayment: (providerPaymentId) => word(real.getPayment(providerPaymentId)),
    findPaymentByKey: (lookup) => money.found(real.findPaymentByKey(lookup)),
    cancelPayment: (request) => word(real.cancelPayment(request)),
    refundPayment: (request) => {
      refundCalls += 1;
      refundRequests.push(request);
      const fault = refundFaults.shift();
      if (fault === "outage") return errAsync({ code: "unavailable", message: "injected outage" });
      if (fault === "refuse") return errAsync({ code: "failed", message: "injected refusal" });
      if (fault === undefined) return word(real.refundPayment(request));
      const made = Promise.resolve(real.refundPayment(request));
      return new ResultAsync(
        made.then((answer) =>
          fault === "pending"
            ? answer.map((refund) => ({ ...refund, status: "pending" as const }))
            : err({ code: "unavailable" as const, message: "injected: no answer" }),
        ),
      );
    },
    getRefund: (providerRefundId) => word(real.getRefund(providerRefundId)),
    readNotification: (notification) => real.readNotification(notification),
    notificationAnswer: real.notificationAnswer,
    notificationOf: (providerPaymentId) => real.notificationOf(providerPaymentId),
    chargeStoredMethod: (request) => {
      chargeCalls += 1;
      const fault = faults.shift();
      if (fault === "outage") return errAsync({ code: "unavailable", message: "injected outage" });
      if (fault === "decline")
        return okAsync({
          providerPaymentId: `injected-decline-${crypto.randomUUID()}`,
          status: "canceled",
          failureCode: "payment_declined",
          methodMask: null,
          savedMethod: null,
          money: request.money,
        });
      if (fault === "charge-then-outage") {
        const charged = Promise.resolve(real.chargeStoredMethod(request));
        return new ResultAsync(
          charged.then(() => err({ code: "unavailable" as const, message: "injected: no answer" })),
        );
      }
      if (fault === "charge-then-hang") {
        const charged = Promise.resolve(real.chargeStoredMethod(request));
        return new ResultAsync(charged.then(() => new Promise<never>(() => {})));
      }
      if (fault === "hold") {
        const charged = Promise.resolve(real.chargeStoredMethod(request));
        return new ResultAsync(held.then(() => charged));
      }
      return word(real.chargeStoredMethod(request));
    },
  };
  const project = sampleProject({ provider: { kind: "sandbox", storedMethodCharge } });
  const apiKey = generateApiKey();
  (await storage.saveProject(project))._unsafeUnwrap();
  const keyRecord = {
    id: crypto.randomUUID(),
    projectId: project.id,
    sha256: hashApiKey(apiKey),
    createdAt: clock.now(),
    revokedAt: null,
  };
  (await storage.addApiKey(keyRecord))._unsafeUnwrap();
  const kopek = createKopek({
    storage,
    providerFor: () => provider,
    publicUrl: "https://pay.example.test/",
    clock,
    ids: createUuidV7Generator({ clock }),
    onAmountMismatch,
    ...(settings.leaseMs !== undefined ? { leaseMs: settings.leaseMs } : {}),
    ...(settings.pendingChargeWaitMs !== undefined
      ? { pendingChargeWaitMs: settings.pendingChargeWaitMs }
      : {}),
  });
  return {
    kopek,
    storage,
    storageFaults,
    clock,
    project,
    apiKey,
    provider,
    chargeCalls: () => chargeCalls,
    linkCalls: () => linkCalls,
    loseNextCreatePayment: () => {
      loseNextCreate = true;
    },
    injectChargeFaults: (...next) => {
      faults.push(...next);
    },
    releaseHeldCharges: () => releaseHeld(),
    injectRefundFaults: (...next) => {
      refundFaults.push(...next);
    },
    refundCalls: () => refundCalls,
    refundRequests: () => refundRequests,
    misstateMoney: money.set,
    amountMismatches: money.mismatches,
    onAmountMismatch,
    call: (path, body, idempotencyKey = crypto.randomUUID(), key = apiKey) =>
      kopek.handle({
        method: "POST",
        url: path,
        headers: {
          authorization: `Bearer ${key}`,
          "idempotency-key": idempotencyKey,
          "content-type": "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    get: (path, query = {}) => {
      const search = new URLSearchParams(query).toString();
      return kopek.handle({
        method: "GET",
        url: search === "" ? path : `${path}?${search}`,
        headers: { authorization: `Bearer ${apiKey}` },
      });
    },
    worker: (overrides = {}) =>
      createRenewalWorker({
        storage,
        providerFor: () => provider,
        clock,
        ids: createUuidV7Generator({ clock }),
        onAmountMismatch,
        ...overrides,
      }),
  };
}

export { invoiceBody, json, payThroughProvider, subscriptionBody } from "./harness-requests.js";
