/** How Kopek sends one webhook request; the server implements it with fetch. */
export interface WebhookTransport {
  /** POSTs `body` to `url` with `headers`; resolves with the answer or a transport failure, never rejects. */
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The whole exchange is abandoned after this long (counts as a failure). */
  readonly timeoutMs: number;
}

export type WebhookResponse =
  | { readonly kind: "response"; readonly status: number; readonly retryAfterSeconds?: number }
  /** No answer: refused, reset, DNS, TLS, or the timeout. */
  | { readonly kind: "failed"; readonly reason: string };

/**
 * Why a webhook endpoint's URL may not be used — a phrase completing "the url …", e.g. "must not point
 * at this machine (loopback)" — or null when it may. The server gives the outbound guard's rule.
 */
export type WebhookUrlProblem = (url: string) => string | null;
