import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { WebhookResponse, WebhookTransport } from "@kopek/core";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { parseRetryAfter } from "./fetch-transport.js";
import { type WebhookUrlPolicy, webhookUrlProblem } from "./webhook-url-policy.js";

/**
 * The webhook transport: one POST through agents that check the address each connection really goes
 * to, after DNS (`request-filtering-agent`: loopback, link-local, private and reserved ranges refused;
 * a name that resolves to one is refused too, and so is a rebinding, since the check is on the socket's
 * own lookup). The URL itself is checked first (`webhookUrlProblem`: https only). Redirects are never
 * followed, the answer's body is never read, and the whole exchange is abandoned after `timeoutMs`.
 */
export function createGuardedTransport(
  policy: WebhookUrlPolicy,
  /** Test aid: resolves names instead of the system's DNS (to show what a name resolving inside gets). */
  lookup?: LookupFunction,
): WebhookTransport {
  const filter = {
    allowPrivateIPAddress: false,
    allowMetaIPAddress: false,
    // Development only: a receiver on this machine.
    allowIPAddressList: policy.allowLocal ? ["127.0.0.1", "::1"] : [],
  };
  const agents = {
    "http:": new RequestFilteringHttpAgent(filter),
    "https:": new RequestFilteringHttpsAgent(filter),
  };
  return {
    async send({ url, headers, body, timeoutMs }) {
      const problem = webhookUrlProblem(url, policy);
      if (problem !== null) return { kind: "failed", reason: `refused: ${problem}` };
      const target = new URL(url);
      const client = target.protocol === "https:" ? https : http;
      const agent = target.protocol === "https:" ? agents["https:"] : agents["http:"];
      return new Promise<WebhookResponse>((resolve) => {
        let timedOut = false;
        const request = client.request(
          target,
          {
            method: "POST",
            agent,
            ...(lookup === undefined ? {} : { lookup }),
            headers: { ...headers, "content-length": Buffer.byteLength(body) },
          },
          (response) => {
            const retryAfter = response.headers["retry-after"];
            const retryAfterSeconds = parseRetryAfter(typeof retryAfter === "string" ? retryAfter : null);
            const status = response.statusCode ?? 0;
            // Nothing of the answer but its status is wanted: the socket goes, unread.
            response.destroy();
            resolve(
              retryAfterSeconds === undefined
                ? { kind: "response", status }
                : { kind: "response", status, retryAfterSeconds },
            );
          },
        );
        const timer = setTimeout(() => {
          timedOut = true;
          request.destroy();
        }, timeoutMs);
        request.on("close", () => clearTimeout(timer));
        request.on("error", (cause: NodeJS.ErrnoException) =>
          resolve({ kind: "failed", reason: timedOut ? "timeout" : (cause.code ?? cause.message) }),
        );
        request.end(body);
      });
    },
  };
}
