import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./schema.generated.js";

export interface KopekClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** The project's API key (`kopek_…`), sent as `Authorization: Bearer <key>`. */
  readonly apiKey: string;
  /** A `fetch` to use instead of the global one (tests, proxies, retries). */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * The generated paths with `Idempotency-Key` optional for callers: the server requires it, and the
 * client sends a fresh one when none is given. Pass your own to retry an operation safely.
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

export type KopekClient = Client<KopekPaths>;

const IDEMPOTENCY_KEY = "Idempotency-Key";

/** Gives every POST without an `Idempotency-Key` a new random one. */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === "POST" && !request.headers.has(IDEMPOTENCY_KEY)) {
      request.headers.set(IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
    }
    return request;
  },
};

/** A typed client for the Kopek HTTP API over openapi-fetch. */
export function createKopekClient(options: KopekClientOptions): KopekClient {
  const client = createClient<KopekPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  client.use(idempotencyKeys);
  return client;
}
