import { createServer, type Server } from "node:http";
import { verifyWebhook } from "@kopek/core";

/**
 * A merchant's endpoint: reads the raw body (the signature covers the exact bytes), verifies it with
 * the endpoint's `whsec_` secret, answers 401 on a bad signature and 204 once the event is handled.
 * Kopek delivers at least once: `seen` deduplicates on webhook-id.
 *
 * A secret rotation needs no downtime: for 24 hours after `rotate-secret` Kopek signs every delivery
 * with the new secret and the old one, so this receiver keeps verifying with the old secret until it
 * is redeployed with the new one. Given several secrets (the old and the new), it accepts a delivery
 * any of them signed, so the order of the two steps does not matter either.
 */
export function createReceiver(
  secrets: string | readonly string[],
  onEvent: (event: { type: string; data: unknown }) => void,
): Server {
  const keys = typeof secrets === "string" ? [secrets] : secrets;
  const seen = new Set<string>();
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const tried = keys.map((secret) => verifyWebhook(secret, request.headers, body));
      const verified = tried.find((result) => result.isOk()) ?? tried[0];
      if (verified === undefined || verified.isErr()) {
        response.writeHead(401).end(verified?.error.code ?? "no secret");
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

/**
 * The receiver as a program: the secret from KOPEK_WEBHOOK_SECRET (required — without it every
 * delivery would be refused as unsigned, so it refuses to start instead; during a rotation, the new
 * and the old secret separated by a space), the port from PORT (default 4000; 0 picks a free one).
 * Returns the server, or why it cannot start.
 */
export function receiverFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  onEvent: (event: { type: string; data: unknown }) => void,
): { server: Server; port: number } | string {
  const secrets = (env.KOPEK_WEBHOOK_SECRET ?? "").split(/\s+/).filter((s) => s !== "");
  if (secrets.length === 0 || !secrets.every((secret) => secret.startsWith("whsec_")))
    return "set KOPEK_WEBHOOK_SECRET to the endpoint's whsec_… secret (kopek webhooks add prints it)";
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return "PORT must be a port number, 0-65535";
  return { server: createReceiver(secrets, onEvent), port };
}

if (process.argv[1]?.endsWith("receiver.ts")) {
  const started = receiverFromEnv(process.env, (event) =>
    console.log(event.type, JSON.stringify(event.data)),
  );
  if (typeof started === "string") {
    console.error(`webhook-receiver: ${started}`);
    process.exitCode = 2;
  } else {
    const { server, port } = started;
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address !== null ? address.port : port;
      console.log(`listening on http://127.0.0.1:${bound}`);
    });
  }
}
