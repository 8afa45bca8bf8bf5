import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Money, PaymentMethod, PaymentProvider, ProviderError } from "@kopek/core";
import type { ResultAsync } from "neverthrow";
import { PATHS, STATUS_OF } from "./wire.js";

const BODY_LIMIT = 64 * 1024;
const METHODS = new Set<string>(["card", "sbp"]);

type Fields = Record<string, unknown>;
/** One operation of the service: its JSON request in, the provider's answer out; null for a bad request. */
export type ProviderServiceHandler = (body: Fields) => ResultAsync<unknown, ProviderError> | null;
type Handler = ProviderServiceHandler;

const isString = (value: unknown): value is string => typeof value === "string";
const asMethod = (value: unknown): PaymentMethod | null =>
  isString(value) && METHODS.has(value) ? (value as PaymentMethod) : null;
const asMoney = (value: unknown): Money | null => {
  const money = value as Partial<Money> | null;
  return money !== null && isString(money?.amount) && isString(money?.currency)
    ? { amount: money.amount, currency: money.currency }
    : null;
};

/** The port's methods, each taking its request as JSON; null when a field is missing or wrong. */
function routes(provider: PaymentProvider): Record<string, Handler> {
  return {
    [PATHS.describe]: (b) => {
      const method = asMethod(b.method);
      return isString(b.ref) && method !== null
        ? provider.describeStoredMethod({ ref: b.ref, method })
        : null;
    },
    [PATHS.charge]: (b) => {
      const method = asMethod(b.method);
      const money = asMoney(b.money);
      if (!isString(b.ref) || method === null || money === null) return null;
      if (!isString(b.description) || !isString(b.idempotencyKey) || b.idempotencyKey === "") return null;
      if (!isString(b.paymentId)) return null;
      return provider.chargeStoredMethod({
        paymentId: b.paymentId,
        ref: b.ref,
        method,
        money,
        description: b.description,
        // The wire format carries no receipt: the HTTP provider declares `receipts: false` (API.md 10.7).
        receipt: null,
        idempotencyKey: b.idempotencyKey,
      });
    },
    [PATHS.createPayment]: (b) => {
      const money = asMoney(b.money);
      const method = asMethod(b.method);
      if (money === null || method === null || !isString(b.paymentId) || !isString(b.description))
        return null;
      if (!isString(b.returnUrl) || !isString(b.idempotencyKey) || b.idempotencyKey === "") return null;
      if (!isString(b.notificationUrl)) return null;
      return provider.createPayment({
        notificationUrl: b.notificationUrl,
        paymentId: b.paymentId,
        money,
        method,
        description: b.description,
        receipt: null,
        returnUrl: b.returnUrl,
        idempotencyKey: b.idempotencyKey,
        // Absent from a client older than saved methods: nothing to save.
        saveMethod: b.saveMethod === true,
      });
    },
    [PATHS.getPayment]: (b) =>
      isString(b.providerPaymentId) ? provider.getPayment(b.providerPaymentId) : null,
    [PATHS.findPaymentByKey]: (b) => {
      const createdAt = new Date(isString(b.createdAt) ? b.createdAt : Number.NaN);
      if (!isString(b.idempotencyKey) || b.idempotencyKey === "" || !isString(b.paymentId)) return null;
      if (Number.isNaN(createdAt.getTime())) return null;
      return provider
        .findPaymentByKey({ idempotencyKey: b.idempotencyKey, paymentId: b.paymentId, createdAt })
        .map((payment) => ({ payment }));
    },
    [PATHS.cancelPayment]: (b) =>
      isString(b.providerPaymentId) && isString(b.idempotencyKey) && b.idempotencyKey !== ""
        ? provider.cancelPayment({ providerPaymentId: b.providerPaymentId, idempotencyKey: b.idempotencyKey })
        : null,
    [PATHS.refund]: (b) => {
      const money = asMoney(b.money);
      if (money === null || !isString(b.refundId) || !isString(b.providerPaymentId)) return null;
      if (!isString(b.idempotencyKey) || b.idempotencyKey === "") return null;
      if (b.reason !== null && !isString(b.reason)) return null;
      return provider.refundPayment({
        refundId: b.refundId,
        providerPaymentId: b.providerPaymentId,
        money,
        reason: b.reason,
        idempotencyKey: b.idempotencyKey,
      });
    },
    [PATHS.getRefund]: (b) => (isString(b.providerRefundId) ? provider.getRefund(b.providerRefundId) : null),
    [PATHS.paymentLink]: (b) => {
      const money = asMoney(b.money);
      const methods = Array.isArray(b.methods) ? b.methods.map(asMethod) : [null];
      const expiresAt = new Date(isString(b.expiresAt) ? b.expiresAt : Number.NaN);
      if (money === null || methods.some((m) => m === null) || Number.isNaN(expiresAt.getTime())) return null;
      if (!isString(b.invoiceId) || !isString(b.description) || !isString(b.hostedPageUrl)) return null;
      if (!isString(b.idempotencyKey) || b.idempotencyKey === "") return null;
      return provider.createPaymentLink({
        invoiceId: b.invoiceId,
        money,
        description: b.description,
        methods: methods as PaymentMethod[],
        expiresAt,
        hostedPageUrl: b.hostedPageUrl,
        idempotencyKey: b.idempotencyKey,
      });
    },
  };
}

/**
 * Serves any PaymentProvider on the provider protocol (wire.ts): what `kopek sandbox-provider` runs,
 * so the provider boundary is a real network hop that can be slow, fail, or outlive a Kopek server.
 */
export function createProviderService(
  provider: PaymentProvider,
  /** Operations of this service beyond the port's, by path (the sandbox's payer decisions). */
  extra: Readonly<Record<string, Handler>> = {},
) {
  const table = { ...extra, ...routes(provider) };
  return (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      response.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      response.end(text);
    };
    const refuse = (status: number, message: string) => send(status, { error: { code: "failed", message } });
    if (request.method === "GET" && request.url === "/healthz") return send(200, { status: "ok" });
    const handler = request.method === "POST" ? table[request.url ?? ""] : undefined;
    if (handler === undefined) return refuse(404, "no such operation");
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on("end", () => {
      if (size > BODY_LIMIT) return refuse(413, "request body too large");
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return refuse(400, "the request body is not JSON");
      }
      const outcome = typeof body === "object" && body !== null ? handler(body as Fields) : null;
      if (outcome === null) return refuse(400, "the request does not match the operation");
      outcome.match(
        (value) => send(200, value),
        (error) => send(STATUS_OF[error.code], { error: { code: error.code, message: error.message } }),
      );
    });
  };
}

export interface RunningProviderService {
  readonly server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens with `createProviderService(provider)` on host:port (port 0: one the system picks). */
export async function startProviderService(options: {
  readonly provider: PaymentProvider;
  readonly port: number;
  readonly host?: string;
  readonly extra?: Readonly<Record<string, Handler>>;
}): Promise<RunningProviderService> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(createProviderService(options.provider, options.extra));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
