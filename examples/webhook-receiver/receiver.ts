import { createServer, type Server } from "node:http";
import { verifyWebhook } from "@kopek/core";

/**
 * A merchant's endpoint: reads the raw body (the signature covers the exact bytes), verifies it with
 * the endpoint's `whsec_` secret, answers 401 on a bad signature and 204 once the event is handled.
 * Kopek delivers at least once: `seen` deduplicates on webhook-id.
 */
export function createReceiver(
  secret: string,
  onEvent: (event: { type: string; data: unknown }) => void,
): Server {
  const seen = new Set<string>();
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const verified = verifyWebhook(secret, request.headers, body);
      if (verified.isErr()) {
        response.writeHead(401).end(verified.error.code);
        return;
      }
      if (!seen.has(verified.value.id)) {
        seen.add(verified.value.id);
        onEvent(JSON.parse(body) as { type: string; data: unknown });
      }
      response.writeHead(204).end();
    });
  });
}

if (process.argv[1]?.endsWith("receiver.ts")) {
  const secret = process.env.KOPEK_WEBHOOK_SECRET ?? "";
  createReceiver(secret, (event) => console.log(event.type, JSON.stringify(event.data))).listen(4000, () =>
    console.log("listening on http://127.0.0.1:4000"),
  );
}
