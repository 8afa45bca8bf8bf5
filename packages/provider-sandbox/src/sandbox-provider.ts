import type {
  PaymentLink,
  PaymentLinkRequest,
  PaymentMethod,
  PaymentProvider,
  ProviderCapabilities,
  ProviderError,
  ProviderPayment,
  StoredMethodCharge,
  StoredMethodDescription,
  StoredMethodLookup,
} from "@kopek/core";
import { type Clock, systemClock } from "@kopek/core";
import { err, ok, type Result, ResultAsync } from "neverthrow";
import { createSandboxLedger, type SandboxLedger } from "./ledger.js";
import {
  createSandboxPayment,
  findSandboxPayment,
  readSandboxNotification,
  sandboxPaymentMadeWith,
} from "./sandbox-payments.js";
import { createSandboxRefunds } from "./sandbox-refunds.js";
import { createStoredCharges } from "./sandbox-stored-charges.js";
import { describeTestMethod, SANDBOX_UNAVAILABLE_PREFIX } from "./test-cards.js";

export interface SandboxProviderOptions {
  /** Whether stored methods can be charged (API.md 7). Default `true`. */
  readonly storedMethodCharge?: boolean;
  /** The books to write to; pass one ledger to several providers to share it. Default: new books. */
  readonly ledger?: SandboxLedger;
  /** Where `chargedAt` comes from. Default: the wall clock. */
  readonly clock?: Clock;
  /**
   * Where the payer confirms a payment made by `createPayment`: the sandbox's checkout page. Default
   * `/sandbox/checkout/{id}`, where the reference server serves it (`createSandboxCheckout`).
   */
  readonly checkoutUrl?: (providerPaymentId: string) => string;
  /**
   * Simulated network latency: every answer arrives this many milliseconds after the sandbox decided
   * (and booked) it, so tests can kill a process while a charge is in flight. Default 0.
   */
  readonly latencyMs?: number;
}

export interface SandboxProvider extends PaymentProvider {
  /** The sandbox's books: what it really charged, for tests and the hosted page. */
  readonly ledger: SandboxLedger;
}

const METHODS: readonly PaymentMethod[] = ["card", "sbp"];
const CURRENCIES: readonly string[] = ["RUB", "USD", "EUR"];
const OUTAGE: ProviderError = { code: "unavailable", message: "the sandbox simulates an outage" };

/** A provider that behaves like a real payment company without one: see API.md 7. */
export function createSandboxProvider(options: SandboxProviderOptions = {}): SandboxProvider {
  const { storedMethodCharge = true, ledger = createSandboxLedger(), clock = systemClock } = options;
  const latencyMs = options.latencyMs ?? 0;
  const checkoutUrl = options.checkoutUrl ?? ((id: string) => `/sandbox/checkout/${id}`);
  const capabilities: ProviderCapabilities = {
    methods: METHODS,
    storedMethodCharge: storedMethodCharge ? METHODS : [],
    saveMethod: METHODS,
    receipts: true,
    cancelPending: true,
    // Its checkout is served by Kopek's server itself.
    confirmationOrigins: [],
    currencies: CURRENCIES,
    // The sandbox has no payment page of its own: the payer pays on Kopek's hosted page.
    paymentPage: "kopek",
  };

  const storedCharges = createStoredCharges(ledger, clock);
  const refunds = createSandboxRefunds(ledger);

  function charge(request: StoredMethodCharge): Result<ProviderPayment, ProviderError> {
    if (request.ref.startsWith(SANDBOX_UNAVAILABLE_PREFIX)) return err(OUTAGE);
    const refused = refusal(
      request.money.currency,
      [request.method],
      capabilities.storedMethodCharge,
      "stored-method charges",
    );
    return refused === undefined ? storedCharges.charge(request) : err(refused);
  }

  // A checkout payment, or a stored-method charge (a pending one is decided by this check).
  function getPayment(providerPaymentId: string): Result<ProviderPayment, ProviderError> {
    const charged = storedCharges.checkCharge(providerPaymentId);
    return charged === undefined ? findSandboxPayment(ledger, providerPaymentId) : ok(charged);
  }

  // Kopek does not ask (capabilities.paymentPage): a link to Kopek's own page, the same for the same
  // request, as a provider without pages of its own would answer.
  function createLink(request: PaymentLinkRequest): Result<PaymentLink, ProviderError> {
    const refused = refusal(request.money.currency, request.methods, capabilities.methods, "payment links");
    return refused === undefined ? ok({ url: request.hostedPageUrl }) : err(refused);
  }

  return {
    capabilities,
    ledger,
    describeStoredMethod: (request: StoredMethodLookup) =>
      settled<StoredMethodDescription>(
        request.ref.startsWith(SANDBOX_UNAVAILABLE_PREFIX) ? err(OUTAGE) : ok(describeTestMethod(request)),
        latencyMs,
      ),
    // Each call decides synchronously, before any await, so parallel calls with one key see one outcome.
    chargeStoredMethod: (request) => settled(charge(request), latencyMs),
    createPaymentLink: (request) => settled(createLink(request), latencyMs),
    createPayment: (request) => {
      const refused = refusal(request.money.currency, [request.method], capabilities.methods, "payments");
      return settled(
        refused === undefined ? createSandboxPayment(ledger, request, checkoutUrl) : err(refused),
        latencyMs,
      );
    },
    getPayment: (providerPaymentId) => settled(getPayment(providerPaymentId), latencyMs),
    findPaymentByKey: ({ idempotencyKey }) =>
      settled<ProviderPayment | null>(
        ok(storedCharges.chargeMadeWith(idempotencyKey) ?? sandboxPaymentMadeWith(ledger, idempotencyKey)),
        latencyMs,
      ),
    cancelPayment: (request) => settled(refunds.cancel(request), latencyMs),
    refundPayment: (request) => settled(refunds.refund(request), latencyMs),
    getRefund: (providerRefundId) => settled(refunds.checkRefund(providerRefundId), latencyMs),
    readNotification: readSandboxNotification,
    notificationAnswer: { status: 200, contentType: "text/plain; charset=utf-8", body: "OK" },
  };
}

/** Why the sandbox refuses a currency or method outright, as a real provider's API would. */
function refusal(
  currency: string,
  methods: readonly PaymentMethod[],
  allowed: readonly PaymentMethod[],
  operation: string,
): ProviderError | undefined {
  if (!CURRENCIES.includes(currency))
    return { code: "failed", message: `the sandbox does not accept ${currency}` };
  const unsupported = methods.find((method) => !allowed.includes(method));
  if (unsupported === undefined) return undefined;
  return { code: "failed", message: `the sandbox does not support ${unsupported} for ${operation}` };
}

function settled<T>(result: Result<T, ProviderError>, latencyMs: number): ResultAsync<T, ProviderError> {
  if (latencyMs <= 0) return new ResultAsync(Promise.resolve(result));
  return new ResultAsync(new Promise((resolve) => setTimeout(() => resolve(result), latencyMs)));
}
