import { createRetryingExchange, type SendOutbound } from "@kopek/outbound";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { z } from "zod";
import { errorSchema, type YooKassaError } from "./yookassa-schemas.js";

/** Why a call got no usable answer. `unavailable`: unknown outcome; `refused`: YooKassa said no (4xx). */
export type CallFailure =
  | { readonly kind: "unavailable"; readonly message: string }
  | { readonly kind: "refused"; readonly status: number; readonly error: YooKassaError };

export interface YooKassaClientOptions {
  readonly shopId: string;
  readonly secretKey: string;
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The guarded way out (`@kopek/outbound`): https only, no address inside the network, no redirects. */
  readonly send: SendOutbound;
  /** First back-off step; doubled on each retry. */
  readonly backoffMs?: number;
}

export interface YooKassaCall<T> {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly schema: z.ZodType<T>;
  readonly body?: unknown;
  /** Sent as `Idempotence-Key` on every attempt of this call, so a retry is never a second operation. */
  readonly idempotenceKey?: string;
}

export interface YooKassaClient {
  call<T>(request: YooKassaCall<T>): ResultAsync<T, CallFailure>;
}

/**
 * A small typed HTTP client for YooKassa API v3: Basic auth and JSON over the shared retrying exchange,
 * which retries 429, 5xx, timeouts and network failures with back-off and the same `Idempotence-Key` —
 * as yookassa.ru/developers/using-api/response-handling/recommendations asks for an unknown result.
 */
export function createYooKassaClient(options: YooKassaClientOptions): YooKassaClient {
  const authorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString("base64")}`;
  const baseUrl = options.apiUrl.replace(/\/+$/, "");
  const exchange = createRetryingExchange(options.send, {
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
    secrets: [options.secretKey, authorization],
  });

  // The refusal's texts are YooKassa's, logged as they come: whatever of the credentials they might echo
  // is taken out first.
  const hide = (text: string) =>
    [options.secretKey, authorization].reduce(
      (hidden, secret) => hidden.replaceAll(secret, "[secret]"),
      text,
    );
  const redacted = (error: YooKassaError): YooKassaError => ({
    ...error,
    code: hide(error.code),
    ...(error.description === undefined ? {} : { description: hide(error.description) }),
    ...(error.parameter === undefined ? {} : { parameter: hide(error.parameter) }),
  });

  async function run<T>(request: YooKassaCall<T>): Promise<{ ok: T } | { failure: CallFailure }> {
    const what = `YooKassa ${request.method} ${request.path.split("?")[0]}`;
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (request.idempotenceKey !== undefined) headers["idempotence-key"] = request.idempotenceKey;
    const answer = await exchange(what, {
      method: request.method,
      url: `${baseUrl}${request.path}`,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    if (!answer.ok) return { failure: { kind: "unavailable", message: answer.message } };
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = request.schema.safeParse(answer.body);
      if (parsed.success) return { ok: parsed.data };
      return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
    }
    const error = errorSchema.safeParse(answer.body);
    const fallback: YooKassaError = {
      type: "error",
      code: `http_${answer.status}`,
      description: "no error body",
    };
    return {
      failure: {
        kind: "refused",
        status: answer.status,
        error: redacted(error.success ? error.data : fallback),
      },
    };
  }

  return {
    call: <T>(request: YooKassaCall<T>) =>
      ResultAsync.fromSafePromise(run(request)).andThen((outcome) =>
        "ok" in outcome ? okAsync(outcome.ok) : errAsync(outcome.failure),
      ),
  };
}
