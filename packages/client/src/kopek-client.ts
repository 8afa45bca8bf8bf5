import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { KopekResources } from "./resource-types.js";
import { createResources } from "./resources.js";
import type { paths } from "./schema.generated.js";

export interface KopekClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** The project's API key (`kopek_…`), sent as `Authorization: Bearer <key>`. */
  readonly apiKey: string;
  /** A `fetch` to use instead of the global one (tests, proxies, retries). */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * What a POST without an `Idempotency-Key` does. `"require"` (the default): it is refused before
   * anything is sent — give every operation its own key (`newIdempotencyKey()`, or one derived from
   * your order) and send the same key again when you retry it, so a retry can never create twice.
   * `"generate"`: the client makes a new random key per call, so calling `POST` again after a timeout
   * is a NEW operation (a retry inside a custom `fetch`, of the same `Request`, still reuses it).
   */
  readonly idempotencyKeys?: "require" | "generate";
  /**
   * How many times a resource method (`kopek.invoices.create(…)`, …) tries a call again after a
   * network error, a 503, a 429 or a `409 idempotency_request_in_progress`, with the same
   * Idempotency-Key and body. Default 2; 0 never retries. The raw `GET` / `POST` do not retry.
   */
  readonly maxRetries?: number;
  /** The wait before the first retry, doubled before each next one (a `Retry-After` waits longer). Default 200. */
  readonly retryDelayMs?: number;
}

/** A new random Idempotency-Key: make it once per operation, keep it, and reuse it on every retry. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * The generated paths with `Idempotency-Key` optional in the types: with `idempotencyKeys: "require"`
 * the client checks it at run time (it cannot be required per path without losing `"generate"`).
 */
type WithOptionalIdempotencyKey<Operation> = Operation extends { parameters: { header: infer Header } }
  ? Omit<Operation, "parameters"> & {
      parameters: Omit<Operation["parameters"], "header"> & {
        header?: Omit<Header, "Idempotency-Key"> & { "Idempotency-Key"?: string };
      };
    }
  : Operation;

export type KopekPaths = {
  [Path in keyof paths]: { [Method in keyof paths[Path]]: WithOptionalIdempotencyKey<paths[Path][Method]> };
};

/** The raw, path-typed `GET` / `POST` of openapi-fetch, and the resource methods beside them. */
export type KopekClient = Client<KopekPaths> & KopekResources;

const IDEMPOTENCY_KEY = "Idempotency-Key";

/** A POST without an `Idempotency-Key`: refused before it is sent, or given a new random key. */
function idempotencyKeys(mode: "require" | "generate"): Middleware {
  return {
    onRequest({ request }) {
      if (request.method !== "POST" || request.headers.has(IDEMPOTENCY_KEY)) return request;
      if (mode === "require")
        throw new TypeError(
          `@kopek/client: POST ${new URL(request.url).pathname} needs params.header["Idempotency-Key"] ` +
            '(newIdempotencyKey(), kept for retries), or createKopekClient({ idempotencyKeys: "generate" })',
        );
      request.headers.set(IDEMPOTENCY_KEY, newIdempotencyKey());
      return request;
    },
  };
}

/** A typed client for the Kopek HTTP API over openapi-fetch. */
export function createKopekClient(options: KopekClientOptions): KopekClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const client = createClient<KopekPaths>({
    baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  client.use(idempotencyKeys(options.idempotencyKeys ?? "require"));
  const resources = createResources({
    baseUrl,
    apiKey: options.apiKey,
    // Looked up per call, as openapi-fetch does, so a test may replace the global fetch.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    maxRetries: nonNegative("maxRetries", options.maxRetries ?? 2),
    retryDelayMs: nonNegative("retryDelayMs", options.retryDelayMs ?? 200),
  });
  return Object.assign(client, resources);
}

function nonNegative(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new TypeError(`@kopek/client: ${name} must be a whole number ≥ 0, not ${value}`);
  return value;
}
