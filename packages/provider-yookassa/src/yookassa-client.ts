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
  readonly fetch: typeof fetch;
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

type Attempt =
  | {
      readonly kind: "answer";
      readonly status: number;
      readonly body: unknown;
      readonly retryAfterMs: number | null;
    }
  | { readonly kind: "no-answer"; readonly message: string };

const MAX_RETRY_AFTER_MS = 5_000;

/**
 * A small typed HTTP client for YooKassa API v3: Basic auth, JSON, one timeout per attempt, and retries of
 * 429, 5xx, timeouts and network failures with exponential back-off and the same `Idempotence-Key` — as
 * yookassa.ru/developers/using-api/response-handling/recommendations asks for an unknown result.
 */
export function createYooKassaClient(options: YooKassaClientOptions): YooKassaClient {
  const authorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString("base64")}`;
  const backoffMs = options.backoffMs ?? 200;
  const baseUrl = options.apiUrl.replace(/\/+$/, "");
  // Belt and braces: no message leaves this client with the key in it, whatever a fetch error says.
  const redact = (text: string) =>
    options.secretKey === "" ? text : text.replaceAll(options.secretKey, "[redacted]");

  async function attempt<T>(request: YooKassaCall<T>): Promise<Attempt> {
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (request.idempotenceKey !== undefined) headers["idempotence-key"] = request.idempotenceKey;
    try {
      const response = await options.fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text === "" ? null : JSON.parse(text);
      } catch {
        body = null;
      }
      return { kind: "answer", status: response.status, body, retryAfterMs: retryAfterOf(response) };
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === "TimeoutError";
      const reason = timedOut ? `no answer within ${options.timeoutMs} ms` : networkReason(error);
      return { kind: "no-answer", message: redact(reason) };
    }
  }

  async function run<T>(request: YooKassaCall<T>): Promise<{ ok: T } | { failure: CallFailure }> {
    const what = `YooKassa ${request.method} ${request.path.split("?")[0]}`;
    for (let retry = 0; ; retry += 1) {
      const answer = await attempt(request);
      const retryable = answer.kind === "no-answer" || answer.status === 429 || answer.status >= 500;
      if (retryable && retry < options.maxRetries) {
        const wait =
          answer.kind === "answer" && answer.retryAfterMs !== null
            ? answer.retryAfterMs
            : backoffMs * 2 ** retry;
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, MAX_RETRY_AFTER_MS)));
        continue;
      }
      if (answer.kind === "no-answer")
        return { failure: { kind: "unavailable", message: `${what}: ${answer.message}` } };
      if (answer.status === 429 || answer.status >= 500) {
        const message = `${what}: HTTP ${answer.status} after ${retry + 1} attempts; the outcome is unknown`;
        return { failure: { kind: "unavailable", message } };
      }
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
        failure: { kind: "refused", status: answer.status, error: error.success ? error.data : fallback },
      };
    }
  }

  return {
    call: <T>(request: YooKassaCall<T>) =>
      ResultAsync.fromSafePromise(run(request)).andThen((outcome) =>
        "ok" in outcome ? okAsync(outcome.ok) : errAsync(outcome.failure),
      ),
  };
}

function retryAfterOf(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (header === null || !/^[0-9]+$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
  const code = cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : null;
  return code === null ? "the request failed on the network" : `the request failed on the network (${code})`;
}
