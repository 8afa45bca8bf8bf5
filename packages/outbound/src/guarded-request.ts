import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { type OutboundPolicy, outboundUrlProblem } from "./outbound-url-policy.js";

export interface GuardOptions {
  readonly policy: OutboundPolicy;
  /** The development opt-in's name, as a refusal tells the operator (e.g. `KOPEK_WEBHOOKS_ALLOW_LOCAL=on`). */
  readonly setting: string;
  /** Test aid: resolves names instead of the system's DNS (to show what a name resolving inside gets). */
  readonly lookup?: LookupFunction;
}

export interface OutboundRequest {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The whole exchange (connect, send, read the answer) is abandoned after this. */
  readonly timeoutMs: number;
  /** The most of the answer's body read; a longer answer fails. 0: the body is never read. */
  readonly maxBodyBytes: number;
}

/** `refused`: the guard stopped it, nothing was sent; `timeout`, `too-large`, `network`: see `detail`. */
export type OutboundFailure = "refused" | "timeout" | "too-large" | "network";

export type OutboundAnswer =
  | {
      readonly kind: "answer";
      readonly status: number;
      readonly headers: http.IncomingHttpHeaders;
      readonly body: string;
    }
  | { readonly kind: "failed"; readonly failure: OutboundFailure; readonly detail: string };

export type SendOutbound = (request: OutboundRequest) => Promise<OutboundAnswer>;

/**
 * Kopek's one way out (webhooks and every provider adapter): the URL is checked first
 * (`outboundUrlProblem`: https only), then each connection goes through agents that check the address
 * it really goes to, after DNS (`request-filtering-agent`: loopback, link-local, private and reserved
 * ranges refused, also for a name resolving to one and for a rebinding, since the check is on the
 * socket's own lookup). Redirects are never followed (a 3xx is an answer like any other), the body is
 * read up to `maxBodyBytes`, and the exchange is abandoned after `timeoutMs`.
 */
export function createGuardedSend(guard: GuardOptions): SendOutbound {
  const filter = {
    allowPrivateIPAddress: false,
    allowMetaIPAddress: false,
    // Development only: a receiver or an emulator on this machine.
    allowIPAddressList: guard.policy.allowLocal ? ["127.0.0.1", "::1"] : [],
  };
  const httpAgent = new RequestFilteringHttpAgent(filter);
  const httpsAgent = new RequestFilteringHttpsAgent(filter);
  return (request) => {
    const problem = outboundUrlProblem(request.url, guard.policy, guard.setting);
    if (problem !== null) return Promise.resolve(failed("refused", problem));
    const target = new URL(request.url);
    const secure = target.protocol === "https:";
    return new Promise<OutboundAnswer>((resolve) => {
      let outcome: OutboundAnswer | null = null;
      const settle = (answer: OutboundAnswer) => {
        outcome ??= answer;
        exchange.destroy();
      };
      const headers: Record<string, string | number> = { ...request.headers };
      if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body);
      const exchange = (secure ? https : http).request(
        target,
        {
          method: request.method,
          agent: secure ? httpsAgent : httpAgent,
          ...(guard.lookup === undefined ? {} : { lookup: guard.lookup }),
          headers,
        },
        (response) => {
          const answer = (body: string) =>
            ({ kind: "answer", status: response.statusCode ?? 0, headers: response.headers, body }) as const;
          if (request.maxBodyBytes === 0) return settle(answer(""));
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > request.maxBodyBytes)
              return settle(failed("too-large", `an answer over ${request.maxBodyBytes} bytes`));
            chunks.push(chunk);
          });
          response.on("end", () => settle(answer(Buffer.concat(chunks).toString("utf8"))));
          response.on("error", () => {});
        },
      );
      const timer = setTimeout(
        () => settle(failed("timeout", `no answer within ${request.timeoutMs} ms`)),
        request.timeoutMs,
      );
      exchange.on("close", () => {
        clearTimeout(timer);
        resolve(outcome ?? failed("network", "the connection closed without an answer"));
      });
      exchange.on("error", (cause: NodeJS.ErrnoException) =>
        settle(
          // request-filtering-agent's refusal after DNS: "DNS lookup <address> … is not allowed".
          /is not allowed/.test(cause.message)
            ? failed("refused", cause.message)
            : failed("network", cause.code ?? cause.message),
        ),
      );
      exchange.end(request.body);
    });
  };
}

const failed = (failure: OutboundFailure, detail: string): OutboundAnswer => ({
  kind: "failed",
  failure,
  detail,
});

/** What a provider adapter takes to reach its API (the same in each adapter's options). */
export interface ProviderOutboundOptions {
  /** Development only: the API may be on this machine (loopback, over http:// too), as emulators are. */
  readonly allowLocal?: boolean;
  /** Test aid: resolves host names instead of the system's DNS. */
  readonly lookup?: LookupFunction;
}

/** A provider adapter's guarded send; `kopek serve` sets `allowLocal` from KOPEK_PROVIDERS_ALLOW_LOCAL=on. */
export function createProviderSend(options: ProviderOutboundOptions): SendOutbound {
  return createGuardedSend({
    policy: { allowLocal: options.allowLocal ?? false },
    setting: "allowLocal (KOPEK_PROVIDERS_ALLOW_LOCAL=on in kopek serve)",
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  });
}
