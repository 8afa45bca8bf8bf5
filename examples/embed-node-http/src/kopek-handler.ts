import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kopek } from "@kopek/core";

/**
 * A `node:http` request listener serving Kopek's API. All it does is read the body, at most
 * `limitBytes` of it; everything else (authentication, the body's type and JSON, the route, the query
 * string, idempotency, every refusal) is `kopek.handle`'s.
 */
export function createKopekHandler(kopek: Kopek, limitBytes = 64 * 1024) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readBody(request, limitBytes);
    const answer = await kopek.handle({
      method: request.method ?? "GET",
      url: request.url ?? "/",
      headers: request.headers,
      body: body ?? undefined,
      // Too large to read: Kopek still authenticates first, then answers 413.
      refusal: body === null ? { code: "payload_too_large", limitBytes } : undefined,
    });
    response.writeHead(answer.status, answer.headers).end(answer.body);
  };
}

/** The body's bytes, or null once past the limit (the rest is drained, not kept). */
async function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}
