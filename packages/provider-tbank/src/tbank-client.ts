import { createRetryingExchange, type SendOutbound } from "@kopek/outbound";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { z } from "zod";
import { answerSchema, type TBankAnswer } from "./tbank-schemas.js";
import { signed } from "./token.js";

/**
 * Why a call got no usable answer. `unavailable`: unknown outcome (no answer, 5xx, an unreadable answer);
 * `refused`: T-Bank answered `Success: false` with a non-zero `ErrorCode`.
 */
export type CallFailure =
  | { readonly kind: "unavailable"; readonly message: string }
  | { readonly kind: "refused"; readonly answer: TBankAnswer; readonly raw: unknown };

export interface TBankClientOptions {
  readonly terminalKey: string;
  readonly password: string;
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The guarded way out (`@kopek/outbound`): https only, no address inside the network, no redirects. */
  readonly send: SendOutbound;
  /** First back-off step; doubled on each retry. */
  readonly backoffMs?: number;
}

/**
 * `once`: a single attempt, never repeated by the exchange. For a call that is not safe to repeat blindly:
 * `Init` (a repeat makes another payment of the order: [T] "OrderId … не является уникальным
 * идентификатором") and an SBP `Cancel` (`ExternalRequestId` "не работает для операций по СБП"). After a
 * lost answer the caller asks what happened instead.
 */
export type CallMode = "retried" | "once";

export interface TBankClient {
  /** POSTs `{ TerminalKey, ...params, Token }` to `/{method}` and reads a `Success: true` answer. */
  call<T>(
    method: string,
    params: Record<string, unknown>,
    schema: z.ZodType<T>,
    mode?: CallMode,
  ): ResultAsync<T, CallFailure>;
}

/**
 * A small typed client for T-Bank acquiring API v2: every request a JSON POST signed with `Token`, over
 * the shared retrying exchange (`@kopek/outbound`: one bounded attempt after another, 429, 5xx, timeouts
 * and network failures retried with back-off). T-Bank has no idempotency header: a retried `Init` or
 * `Charge` is made safe by the caller (the same `OrderId`, `CheckOrder` before acting; README).
 */
export function createTBankClient(options: TBankClientOptions): TBankClient {
  const baseUrl = options.apiUrl.replace(/\/+$/, "");
  const exchangeOf = (maxRetries: number) =>
    createRetryingExchange(options.send, {
      timeoutMs: options.timeoutMs,
      maxRetries,
      ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
      secrets: [options.password],
    });
  const exchanges = { retried: exchangeOf(options.maxRetries), once: exchangeOf(0) };

  async function run<T>(
    method: string,
    params: Record<string, unknown>,
    schema: z.ZodType<T>,
    mode: CallMode,
  ): Promise<{ ok: T } | { failure: CallFailure }> {
    const exchange = exchanges[mode];
    const what = `T-Bank ${method}`;
    const body = JSON.stringify(signed({ TerminalKey: options.terminalKey, ...params }, options.password));
    const answer = await exchange(what, {
      method: "POST",
      url: `${baseUrl}/${method}`,
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
    });
    if (!answer.ok) return { failure: { kind: "unavailable", message: answer.message } };
    // T-Bank answers its refusals with 200 and Success: false; another 4xx is a request it never took.
    if (answer.status !== 200) {
      const refused = { Success: false, ErrorCode: `HTTP ${answer.status}`, Message: "not an API answer" };
      return { failure: { kind: "refused", answer: refused, raw: answer.body } };
    }
    // GetCardList answers a bare array when it succeeds (…/eacq/api/get-card-list); errors are envelopes.
    if (Array.isArray(answer.body)) {
      const list = schema.safeParse(answer.body);
      if (list.success) return { ok: list.data };
      return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
    }
    const envelope = answerSchema.safeParse(answer.body);
    if (!envelope.success)
      return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
    if (!envelope.data.Success || envelope.data.ErrorCode !== "0")
      return { failure: { kind: "refused", answer: envelope.data, raw: answer.body } };
    const parsed = schema.safeParse(answer.body);
    if (parsed.success) return { ok: parsed.data };
    return { failure: { kind: "unavailable", message: `${what}: an answer of unexpected shape` } };
  }

  return {
    call: <T>(
      method: string,
      params: Record<string, unknown>,
      schema: z.ZodType<T>,
      mode: CallMode = "retried",
    ) =>
      ResultAsync.fromSafePromise(run(method, params, schema, mode)).andThen((outcome) =>
        "ok" in outcome ? okAsync(outcome.ok) : errAsync(outcome.failure),
      ),
  };
}
