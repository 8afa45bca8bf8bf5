import type {
  CancelRequest,
  CreatedPayment,
  PaymentLink,
  PaymentLinkRequest,
  PaymentLookup,
  PaymentMethod,
  PaymentProvider,
  PaymentRequest,
  ProviderCapabilities,
  ProviderError,
  ProviderPayment,
  ProviderRefund,
  RefundRequest,
  StoredMethodCharge,
  StoredMethodDescription,
  StoredMethodLookup,
} from "@kopek/core";
import { createProviderSend, DEFAULT_MAX_BODY_BYTES, type ProviderOutboundOptions } from "@kopek/outbound";
import { err, ok, type Result, ResultAsync } from "neverthrow";
import {
  asCreatedPayment,
  asDescription,
  asFoundPayment,
  asPaymentLink,
  asProviderPayment,
  asRefund,
} from "./response-shapes.js";
import { errorCodeOf, errorMessageOf, PATHS, readWireNotification } from "./wire.js";

export interface HttpProviderOptions extends ProviderOutboundOptions {
  /** Base URL of the provider service, e.g. `https://pay.example.com` (`http://127.0.0.1:4010` with `allowLocal`). */
  readonly url: string;
  /** What it can do. Declared, not asked: Kopek decides `method_unavailable` without calling it. */
  readonly capabilities?: ProviderCapabilities;
  /** A call with no complete answer by then is `unavailable` (not retried). Default 10 000. */
  readonly timeoutMs?: number;
  /** Extra attempts after a connection error (refused, reset), each call being idempotent. Default 2. */
  readonly retries?: number;
  /** Pause before the n-th retry, in milliseconds. Default 50 × 3^(n-1). */
  readonly retryDelayMs?: (retry: number) => number;
}

const METHODS: readonly PaymentMethod[] = ["card", "sbp"];
export const DEFAULT_HTTP_PROVIDER_CAPABILITIES: ProviderCapabilities = {
  methods: METHODS,
  storedMethodCharge: METHODS,
  saveMethod: METHODS,
  receipts: false,
  cancelPending: true,
  // The provider service's pages are on Kopek's server (the sandbox's checkout); declare others here.
  confirmationOrigins: [],
  currencies: ["RUB", "USD", "EUR"],
  // Links come from the provider service (it answers with the page the payer pays on).
  paymentPage: "provider",
};
export const DEFAULT_HTTP_PROVIDER_TIMEOUT_MS = 10_000;

// Connection errors, as Node reports them in `code`: nothing (or not all) got through.
const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * A payment provider reached over HTTP (wire.ts). Every call carries what makes it idempotent (the
 * provider-side key of a charge or link; a describe only reads), so connection errors are retried a
 * bounded number of times; a timeout is not, since the answer may still be on its way. Timeouts and
 * connection errors are `unavailable`; a malformed answer is `failed`.
 */
export function createHttpProvider(options: HttpProviderOptions): PaymentProvider {
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_PROVIDER_TIMEOUT_MS;
  const retries = options.retries ?? 2;
  const delay = options.retryDelayMs ?? ((retry: number) => 50 * 3 ** (retry - 1));
  const send = createProviderSend(options);

  async function once(path: string, body: unknown): Promise<Result<unknown, ProviderError | "connection">> {
    const answer = await send({
      method: "POST",
      url: `${base}${path}`,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      timeoutMs,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    });
    if (answer.kind === "failed") {
      if (answer.failure === "timeout")
        return err({ code: "unavailable", message: `the provider did not answer within ${timeoutMs} ms` });
      if (answer.failure === "network" && CONNECTION_ERRORS.has(answer.detail)) return err("connection");
      return err({ code: "unavailable", message: `the provider could not be reached (${answer.detail})` });
    }
    const response = { ok: answer.status >= 200 && answer.status < 300, status: answer.status };
    const text = answer.body;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (!response.ok)
        return err({
          code: errorCodeOf(response.status, null),
          message: errorMessageOf(response.status, null),
        });
      return err({ code: "failed", message: "the provider's answer is not JSON" });
    }
    if (!response.ok)
      return err({
        code: errorCodeOf(response.status, parsed),
        message: errorMessageOf(response.status, parsed),
      });
    return ok(parsed);
  }

  function call<T>(
    path: string,
    body: unknown,
    shape: (value: unknown) => T | null,
  ): ResultAsync<T, ProviderError> {
    const attempt = async (): Promise<Result<T, ProviderError>> => {
      for (let retry = 0; ; retry++) {
        const answer = await once(path, body);
        if (answer.isOk()) {
          const value = shape(answer.value);
          return value === null
            ? err({ code: "failed", message: "the provider's answer is malformed" })
            : ok(value);
        }
        if (answer.error !== "connection") return err(answer.error);
        if (retry >= retries)
          return err({
            code: "unavailable",
            message: `the provider could not be reached (${retry + 1} attempts)`,
          });
        await new Promise((resolve) => setTimeout(resolve, delay(retry + 1)));
      }
    };
    return new ResultAsync(attempt());
  }

  return {
    capabilities: options.capabilities ?? DEFAULT_HTTP_PROVIDER_CAPABILITIES,
    describeStoredMethod: (request: StoredMethodLookup) =>
      call<StoredMethodDescription>(PATHS.describe, request, asDescription),
    chargeStoredMethod: (request: StoredMethodCharge) =>
      call<ProviderPayment>(PATHS.charge, request, asProviderPayment),
    createPaymentLink: (request: PaymentLinkRequest) =>
      call<PaymentLink>(PATHS.paymentLink, request, asPaymentLink),
    createPayment: (request: PaymentRequest) =>
      call<CreatedPayment>(PATHS.createPayment, request, asCreatedPayment),
    getPayment: (providerPaymentId: string) =>
      call<ProviderPayment>(PATHS.getPayment, { providerPaymentId }, asProviderPayment),
    findPaymentByKey: (lookup: PaymentLookup) =>
      call<{ payment: ProviderPayment | null }>(PATHS.findPaymentByKey, lookup, asFoundPayment).map(
        (found) => found.payment,
      ),
    cancelPayment: (request: CancelRequest) =>
      call<ProviderPayment>(PATHS.cancelPayment, request, asProviderPayment),
    refundPayment: (request: RefundRequest) => call<ProviderRefund>(PATHS.refund, request, asRefund),
    getRefund: (providerRefundId: string) =>
      call<ProviderRefund>(PATHS.getRefund, { providerRefundId }, asRefund),
    readNotification: ({ body }) => {
      const read = readWireNotification(body);
      return read === "invalid" ? err({ code: "failed", message: "not a provider notification" }) : ok(read);
    },
    notificationAnswer: { status: 200, contentType: "text/plain; charset=utf-8", body: "OK" },
  };
}
