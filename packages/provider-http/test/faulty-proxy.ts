import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to the next request; after the queue empties it forwards faithfully. */
export type Fault =
  /** Forwards, and answers only after `delayMs` (past the client's timeout): the provider did act. */
  | { readonly kind: "slow"; readonly delayMs: number }
  /** Answers 500 (or `status`) without forwarding. */
  | { readonly kind: "status"; readonly status: number; readonly forwardFirst?: boolean }
  /** Drops the connection without an answer; with `forwardFirst`, after the provider acted. */
  | { readonly kind: "reset"; readonly forwardFirst?: boolean }
  /** Forwards, then answers 200 with a body that is not JSON, or JSON of the wrong shape. */
  | { readonly kind: "malformed"; readonly body: string };

/**
 * A misbehaving network between Kopek and a provider service, for fault tests: every request goes to
 * `upstream`, except that queued faults are applied, one per request, in order.
 */
export async function startFaultyProxy(upstream: string) {
  const faults: Fault[] = [];
  let forwarded = 0;
  const target = new URL(upstream);
  const pass = (method: string, path: string, body: Buffer) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      forwarded += 1;
      const out = forward(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers: { "content-type": "application/json" },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => resolve({ status: answer.statusCode ?? 502, body: Buffer.concat(chunks) }));
        },
      );
      out.on("error", reject);
      out.end(body);
    });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks);
      const fault = faults.shift();
      const send = (status: number, text: Buffer | string) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(text);
      };
      try {
        const forwardFirst =
          fault === undefined ||
          fault.kind === "slow" ||
          fault.kind === "malformed" ||
          fault.forwardFirst === true;
        const answer = forwardFirst ? await pass(request.method ?? "POST", request.url ?? "/", body) : null;
        if (fault === undefined) return send(answer?.status ?? 502, answer?.body ?? "");
        if (fault.kind === "slow") {
          await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          if (!response.destroyed) send(answer?.status ?? 502, answer?.body ?? "");
          return;
        }
        if (fault.kind === "status")
          return send(fault.status, '{"error":{"code":"boom","message":"injected"}}');
        if (fault.kind === "reset") return request.socket.destroy();
        return send(200, fault.body);
      } catch {
        request.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Queues faults for the next requests, one each. */
    inject: (...next: Fault[]) => faults.push(...next),
    /** How many requests reached the provider. */
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
