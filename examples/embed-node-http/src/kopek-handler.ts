import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kopek, KopekError, KopekResponse } from "@kopek/core";

export interface KopekHandlerOptions {
  readonly kopek: Kopek;
  /** Largest accepted body in bytes; default 64 KiB as the reference server. */
  readonly bodyLimitBytes?: number;
}

const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * A `node:http` request listener that serves Kopek's API: everything HTTP-specific an embedding owns
 * (request id, reading and parsing the body, its size and type) happens here; every rule of the API
 * is `kopek.handle`'s. Authentication comes first, as the API promises, so an anonymous caller learns
 * nothing about its body.
 */
export function createKopekHandler({ kopek, bodyLimitBytes = 64 * 1024 }: KopekHandlerOptions) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const sent = request.headers["x-request-id"];
    const requestId = typeof sent === "string" && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
    const url = new URL(request.url ?? "/", "http://localhost");
    const path = url.pathname;
    const method = request.method ?? "GET";
    // Paths outside /v1 are 404 for everyone; kopek.handle answers those itself.
    const auth =
      path === "/v1" || path.startsWith("/v1/")
        ? await kopek.authenticate(request.headers.authorization)
        : null;
    // A refusal of our own: authenticate may have answered from Kopek's key cache, so the key is
    // confirmed first, and a revoked one gets its 401 rather than the body's error.
    const refuse = async (error: KopekError) => {
      const confirmed = auth?.isOk() ? await kopek.confirm(auth.value) : null;
      send(response, requestId, kopek.errorResponse(confirmed?.isErr() ? confirmed.error : error, requestId));
    };
    if (auth?.isErr()) return refuse(auth.error);

    let body: unknown;
    if (method === "POST") {
      if (Number(request.headers["content-length"]) > bodyLimitBytes) {
        return refuse({ code: "payload_too_large", limitBytes: bodyLimitBytes });
      }
      const raw = await readBody(request, bodyLimitBytes);
      if (raw === null) return refuse({ code: "payload_too_large", limitBytes: bodyLimitBytes });
      // No body at all (a cancel, typically) reaches Kopek as `undefined`; core says if one was needed.
      const bodiless = raw === "" && request.headers["content-type"] === undefined;
      if (!bodiless && !isJson(request.headers["content-type"])) {
        return refuse({ code: "unsupported_media_type" });
      }
      try {
        body = bodiless ? undefined : JSON.parse(raw);
      } catch {
        return refuse({ code: "invalid_json" });
      }
    }

    const idempotencyKey = request.headers["idempotency-key"];
    const answer = await kopek.handle({
      method,
      path,
      query: queryOf(url.searchParams),
      authorization: request.headers.authorization,
      idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey.join(", ") : idempotencyKey,
      body,
      requestId,
      auth: auth?.isOk() ? auth.value : undefined,
    });
    send(response, requestId, answer);
  };
}

/** The list parameters: a repeated one as an array, which core refuses as "must be given once". */
function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? "") : values;
  }
  return query;
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

/** The body as text, or null once it passes the limit (the rest is drained, not buffered). */
async function readBody(request: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, requestId: string, answer: KopekResponse): void {
  response.writeHead(answer.status, { ...answer.headers, "x-request-id": requestId });
  response.end(answer.body);
}
