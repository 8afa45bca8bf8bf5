import type { OutboundRequest, SendOutbound } from "./guarded-request.js";

export interface RetryingExchangeOptions {
  /** Per attempt: the whole exchange. */
  readonly timeoutMs: number;
  /** Extra attempts after 429, 5xx, a timeout or a network failure. */
  readonly maxRetries: number;
  /** First back-off step; doubled on each retry. Default 200. */
  readonly backoffMs?: number;
  /** The most of an answer read. Default 1 MiB: no provider answer comes near it. */
  readonly maxBodyBytes?: number;
  /** Texts that never leave in a message (the provider's secret), whatever a network error says. */
  readonly secrets: readonly string[];
}

/** A final answer (never 3xx, 429 or 5xx) with its body as JSON (null when not JSON), or why none came. */
export type Exchange =
  | { readonly ok: true; readonly status: number; readonly body: unknown }
  | { readonly ok: false; readonly message: string };

export type ExchangeRequest = Omit<OutboundRequest, "timeoutMs" | "maxBodyBytes">;

const MAX_WAIT_MS = 5_000;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The part of a provider API client that is not the provider's: one bounded attempt after another
 * through the guarded `send`, retrying 429, 5xx, timeouts and network failures with exponential back-off
 * (or the answer's `Retry-After`, both capped at 5 s). The caller makes a retry safe (the same
 * idempotence key, the same order id). A refusal by the guard, a redirect or an oversized answer is
 * final. A failure's message starts with `what` and says whether the outcome is unknown.
 */
export function createRetryingExchange(send: SendOutbound, options: RetryingExchangeOptions) {
  const backoffMs = options.backoffMs ?? 200;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const redact = (text: string) =>
    options.secrets.reduce(
      (out, secret) => (secret === "" ? out : out.replaceAll(secret, "[redacted]")),
      text,
    );

  return async function exchange(what: string, request: ExchangeRequest): Promise<Exchange> {
    const fail = (message: string): Exchange => ({ ok: false, message: `${what}: ${redact(message)}` });
    for (let retry = 0; ; retry += 1) {
      const answer = await send({ ...request, timeoutMs: options.timeoutMs, maxBodyBytes });
      if (answer.kind === "failed" && (answer.failure === "refused" || answer.failure === "too-large"))
        return fail(`${answer.detail}; not sent or not read`);
      const status = answer.kind === "answer" ? answer.status : 0;
      const retryable = answer.kind === "failed" || status === 429 || status >= 500;
      if (retryable && retry < options.maxRetries) {
        const after = answer.kind === "answer" ? retryAfterMs(answer.headers["retry-after"]) : null;
        const wait = Math.min(after ?? backoffMs * 2 ** retry, MAX_WAIT_MS);
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      if (answer.kind === "failed")
        return fail(
          answer.failure === "network"
            ? `the request failed on the network (${answer.detail})`
            : answer.detail,
        );
      if (status === 429 || status >= 500)
        return fail(`HTTP ${status} after ${retry + 1} attempts; the outcome is unknown`);
      if (status >= 300 && status < 400)
        return fail(`answered with a redirect (HTTP ${status}), which is never followed`);
      return { ok: true, status, body: jsonOrNull(answer.body) };
    }
  };
}

function retryAfterMs(header: string | undefined): number | null {
  if (header === undefined || !/^[0-9]+$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

function jsonOrNull(text: string): unknown {
  try {
    return text === "" ? null : JSON.parse(text);
  } catch {
    return null;
  }
}
