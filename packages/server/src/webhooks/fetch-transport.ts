import type { WebhookTransport } from "@kopek/core";

/** Retry-After as seconds: delta-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The webhook transport over fetch: one POST, abandoned after `timeoutMs`, redirects not followed
 * (a 3xx is not a 2xx, and following one could send a signed event somewhere else).
 */
export const fetchTransport: WebhookTransport = {
  async send({ url, headers, body, timeoutMs }) {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is not read past what a receiver sends; cancel frees the socket.
      await response.body?.cancel().catch(() => {});
      const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"));
      return retryAfterSeconds === undefined
        ? { kind: "response", status: response.status }
        : { kind: "response", status: response.status, retryAfterSeconds };
    } catch (cause) {
      const error = cause as Error & { cause?: { code?: string } };
      const reason = error.name === "TimeoutError" ? "timeout" : (error.cause?.code ?? error.message);
      return { kind: "failed", reason };
    }
  },
};
