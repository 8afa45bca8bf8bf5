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
