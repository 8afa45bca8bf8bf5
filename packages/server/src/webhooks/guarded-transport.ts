import type { LookupFunction } from "node:net";
import type { WebhookTransport } from "@kopek/core";
import { createGuardedSend } from "@kopek/outbound";
import { parseRetryAfter } from "./fetch-transport.js";
import { WEBHOOKS_LOCAL_SETTING, type WebhookUrlPolicy } from "./webhook-url-policy.js";

/**
 * The webhook transport: one POST through Kopek's guarded way out (`@kopek/outbound`, which provider
 * adapters use too): https only, the address each connection really goes to checked after DNS
 * (loopback, link-local, private and reserved ranges refused, rebinding included), redirects never
 * followed, the answer's body never read, and the whole exchange abandoned after `timeoutMs`.
 */
export function createGuardedTransport(
  policy: WebhookUrlPolicy,
  /** Test aid: resolves names instead of the system's DNS (to show what a name resolving inside gets). */
  lookup?: LookupFunction,
): WebhookTransport {
  const send = createGuardedSend({
    policy,
    setting: WEBHOOKS_LOCAL_SETTING,
    ...(lookup === undefined ? {} : { lookup }),
  });
  return {
    async send({ url, headers, body, timeoutMs }) {
      const answer = await send({ method: "POST", url, headers, body, timeoutMs, maxBodyBytes: 0 });
      if (answer.kind === "failed") {
        const reason =
          answer.failure === "refused"
            ? `refused: ${answer.detail}`
            : answer.failure === "timeout"
              ? "timeout"
              : answer.detail;
        return { kind: "failed", reason };
      }
      const retryAfter = answer.headers["retry-after"];
      const retryAfterSeconds = parseRetryAfter(typeof retryAfter === "string" ? retryAfter : null);
      return retryAfterSeconds === undefined
        ? { kind: "response", status: answer.status }
        : { kind: "response", status: answer.status, retryAfterSeconds };
    },
  };
}
