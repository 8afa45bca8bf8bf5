import { KopekApiError, type KopekProblem, readProblem } from "./kopek-api-error.js";

/** How resource methods reach the server. */
export interface Transport {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch: typeof globalThis.fetch;
  /** Attempts after the first one. */
  readonly maxRetries: number;
  /** The first backoff; each further attempt waits twice as long as the one before. */
  readonly retryDelayMs: number;
}

export interface KopekRequest {
  readonly method: "GET" | "POST" | "DELETE";
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  readonly body?: unknown;
  readonly idempotencyKey?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A `Retry-After` longer than this is not slept through: the error is thrown instead. */
const LONGEST_RETRY_AFTER_MS = 60_000;

/**
 * Sends one request and answers its JSON body, or throws a `KopekApiError`. Every call it makes is
 * safe to repeat (a GET, or a POST with its Idempotency-Key), so a network error, a 503, a 429 or a
 * `409 idempotency_request_in_progress` is tried again, with the same key and the same body.
 */
export async function sendRequest<Data>(transport: Transport, request: KopekRequest): Promise<Data> {
  const url = requestUrl(transport.baseUrl, request);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await transport.fetch(newRequest(transport, request, url, body));
    } catch (error) {
      if (attempt >= transport.maxRetries || request.signal?.aborted === true) throw error;
      await sleep(backoff(transport, attempt), request.signal);
      continue;
    }
    if (response.ok) return (await response.json()) as Data;
    const problem = await readProblem(response);
    const wait =
      attempt < transport.maxRetries ? retryWait(transport, attempt, response, problem) : undefined;
    if (wait === undefined) throw new KopekApiError(response.status, problem, response.headers);
    await sleep(wait, request.signal);
  }
}

function requestUrl(baseUrl: string, request: KopekRequest): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) search.set(name, String(value));
  const query = search.size === 0 ? "" : `?${search}`;
  return `${baseUrl}${request.path}${query}`;
}

/** A new Request per attempt (a body is read once), with the same headers and body each time. */
function newRequest(transport: Transport, request: KopekRequest, url: string, body: string | undefined) {
  const headers = new Headers({ Authorization: `Bearer ${transport.apiKey}`, Accept: "application/json" });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  if (request.idempotencyKey !== undefined) headers.set("Idempotency-Key", request.idempotencyKey);
  return new Request(url, {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
}

/** How long to wait before trying an answer again, or undefined when it is final. */
function retryWait(
  transport: Transport,
  attempt: number,
  response: Response,
  problem: KopekProblem | undefined,
): number | undefined {
  const retryable =
    response.status === 503 ||
    response.status === 429 ||
    (response.status === 409 && problem?.code === "idempotency_request_in_progress");
  if (!retryable) return undefined;
  const retryAfter = retryAfterMs(response.headers.get("retry-after"));
  if (retryAfter !== undefined && retryAfter > LONGEST_RETRY_AFTER_MS) return undefined;
  return Math.max(retryAfter ?? 0, backoff(transport, attempt));
}

/** `Retry-After` as seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const backoff = (transport: Transport, attempt: number) => transport.retryDelayMs * 2 ** attempt;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
