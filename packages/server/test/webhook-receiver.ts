import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** What the receiver does with the next POST: answer a status (with Retry-After), or never answer. */
export type ReceiverBehaviour = { status: number; retryAfter?: string } | "hang";

/**
 * A merchant's server for the tests: records every POST to /hooks with its raw body, answers with the
 * queued behaviours (then 200), and serves GET /return as the merchant's "thank you" page.
 */
export async function startReceiver(port = 0) {
  const received: ReceivedWebhook[] = [];
  const behaviours: ReceiverBehaviour[] = [];
  const server: Server = createServer((request, response) => {
    if (request.method === "GET") {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>Thanks</title><h1>Merchant thanks you</h1>");
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const behaviour = behaviours.shift() ?? { status: 200 };
      if (behaviour === "hang") return;
      const headers: Record<string, string> = behaviour.retryAfter
        ? { "retry-after": behaviour.retryAfter }
        : {};
      response.writeHead(behaviour.status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    received,
    behaviours,
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
