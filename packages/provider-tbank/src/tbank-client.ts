import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { z } from "zod";
import { answerSchema, type TBankAnswer } from "./tbank-schemas.js";
import { signed } from "./token.js";

/**
 * Why a call got no usable answer. `unavailable`: unknown outcome (no answer, 5xx, an unreadable answer);
 * `refused`: T-Bank answered `Success: false` with a non-zero `ErrorCode`.
 */
export type CallFailure =
  | { readonly kind: "unavailable"; readonly message: string }
  | { readonly kind: "refused"; readonly answer: TBankAnswer; readonly raw: unknown };

export interface TBankClientOptions {
  readonly terminalKey: string;
  readonly password: string;
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly fetch: typeof fetch;
  /** First back-off step; doubled on each retry. */
  readonly backoffMs?: number;
}

export interface TBankClient {
  /** POSTs `{ TerminalKey, ...params, Token }` to `/{method}` and reads a `Success: true` answer. */
  call<T>(method: string, params: Record<string, unknown>, schema: z.ZodType<T>): ResultAsync<T, CallFailure>;
}

type Attempt =
  | { readonly kind: "answer"; readonly status: number; readonly body: unknown }
  | { readonly kind: "no-answer"; readonly message: string };

const MAX_BACKOFF_MS = 5_000;

/**
 * A small typed client for T-Bank acquiring API v2: every request a JSON POST signed with `Token`, one
 * timeout per attempt, and retries of 5xx, timeouts and network failures with exponential back-off —
 * the shape of the YooKassa client. T-Bank has no idempotency header: a retried `Init` or `Charge` is
 * made safe by the caller (the same `OrderId`, `CheckOrder` before acting; README).
 */
export function createTBankClient(options: TBankClientOptions): TBankClient {
  const backoffMs = options.backoffMs ?? 200;
  const baseUrl = options.apiUrl.replace(/\/+$/, "");
  const redact = (text: string) =>
    options.password === "" ? text : text.replaceAll(options.password, "[redacted]");

  async function attempt(method: string, body: string): Promise<Attempt> {
    try {
      const response = await options.fetch(`${baseUrl}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text === "" ? null : JSON.parse(text);
      } catch {
        parsed = null;
      }
      return { kind: "answer", status: response.status, body: parsed };
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === "TimeoutError";
      return {
        kind: "no-answer",
        message: redact(timedOut ? `no answer within ${options.timeoutMs} ms` : networkReason(error)),
      };
    }
  }

  async function run<T>(
    method: string,
    params: Record<string, unknown>,
    schema: z.ZodType<T>,
  ): Promise<{ ok: T } | { failure: CallFailure }> {
    const what = `T-Bank ${method}`;
    const body = JSON.stringify(signed({ TerminalKey: options.terminalKey, ...params }, options.password));
    for (let retry = 0; ; retry += 1) {
      const answer = await attempt(method, body);
      const retryable = answer.kind === "no-answer" || answer.status === 429 || answer.status >= 500;
      if (retryable && retry < options.maxRetries) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(backoffMs * 2 ** retry, MAX_BACKOFF_MS)));
        continue;
      }
      if (answer.kind === "no-answer")
        return { failure: { kind: "unavailable", message: `${what}: ${answer.message}` } };
      if (answer.status === 429 || answer.status >= 500) {
        const message = `${what}: HTTP ${answer.status} after ${retry + 1} attempts; the outcome is unknown`;
        return { failure: { kind: "unavailable", message } };
      }
      // T-Bank answers its refusals with 200 and Success: false; another 4xx is a request it never took.
      if (answer.status !== 200) {
        const refused = { Success: false, ErrorCode: `HTTP ${answer.status}`, Message: "not an API answer" };
        return { failure: { kind: "refused", answer: refused, raw: answer.body } };
      }
      // GetCardList answers a bare array when it succeeds (…/eacq/api/get-card-list); errors are envelopes.
      if (Array.isArray(answer.body)) {
        const list = schema.safeParse(answer.body);
        if (list.success) return { ok: list.data };
        return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
      }
      const envelope = answerSchema.safeParse(answer.body);
      if (!envelope.success)
        return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
      if (!envelope.data.Success || envelope.data.ErrorCode !== "0")
        return { failure: { kind: "refused", answer: envelope.data, raw: answer.body } };
      const parsed = schema.safeParse(answer.body);
      if (parsed.success) return { ok: parsed.data };
      return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
    }
  }

  return {
    call: <T>(method: string, params: Record<string, unknown>, schema: z.ZodType<T>) =>
      ResultAsync.fromSafePromise(run(method, params, schema)).andThen((outcome) =>
        "ok" in outcome ? okAsync(outcome.ok) : errAsync(outcome.failure),
      ),
  };
}

function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
  const code = cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : null;
  return code === null ? "the request failed on the network" : `the request failed on the network (${code})`;
}
