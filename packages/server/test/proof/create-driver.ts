import { setTimeout as sleep } from "node:timers/promises";
import { invoiceBody, subscriptionBody, uniqueMethodRef } from "../helper.js";
import { recordMethodRef } from "../test-artifacts.js";

/** One create request, retried with the same key and body until the server answers it. */
export interface DrivenRequest {
  readonly key: string;
  /** A create (`/v1/subscriptions`, `/v1/invoices`) or any other POST answered with a resource's `id`. */
  readonly route: string;
  readonly body: Record<string, unknown>;
}

export interface Acknowledged extends DrivenRequest {
  readonly status: 201 | 200;
  readonly id: string;
  readonly responseBody: string;
}

export interface DriveFigures {
  readonly requests: number;
  /** HTTP attempts in all, retries included. */
  readonly attempts: number;
  /** Attempts that got no answer: connection refused or reset (a crash, a restart). */
  readonly unanswered: number;
  /** Answers by status (409: in progress; 503: storage or provider down). */
  readonly statuses: Readonly<Record<number, number>>;
  readonly acknowledged: readonly Acknowledged[];
}

/** `count` create requests, 4 in 5 subscriptions, each with its own key and method ref. */
export function makeRequests(count: number): DrivenRequest[] {
  return Array.from({ length: count }, (_, i) =>
    i % 5 === 4
      ? { key: `proof-${crypto.randomUUID()}`, route: "/v1/invoices", body: invoiceBody() }
      : subscriptionRequest(),
  );
}

/** `count` subscription creates, each with its own key and method ref. */
export function makeSubscriptionRequests(count: number): DrivenRequest[] {
  return Array.from({ length: count }, subscriptionRequest);
}

function subscriptionRequest(): DrivenRequest {
  const ref = uniqueMethodRef("pm_proof");
  recordMethodRef(ref);
  const body = subscriptionBody({ providerMethodRef: ref });
  return { key: `proof-${crypto.randomUUID()}`, route: "/v1/subscriptions", body };
}

/**
 * Sends every request with `concurrency` in flight, each retried with the same key until it gets a
 * 201 or 200 (an answer that is a 409, a 5xx, or no answer at all is retried after a pause). `url()`
 * says where the server is now; null while it is down.
 */
export async function driveCreates(options: {
  readonly requests: readonly DrivenRequest[];
  readonly concurrency: number;
  readonly apiKey: string;
  readonly url: () => string | null;
  /** Give up on a request after this long (a server that never comes back). */
  readonly deadlineMs?: number;
  /** A pause after each acknowledged request, so that a run lasts long enough to span its faults. */
  readonly paceMs?: number;
  /** Called with the number of requests acknowledged so far, after each one. */
  readonly onProgress?: (acknowledged: number) => void;
}): Promise<DriveFigures> {
  const statuses: Record<number, number> = {};
  const acknowledged: Acknowledged[] = [];
  let attempts = 0;
  let unanswered = 0;
  let next = 0;
  const deadline = Date.now() + (options.deadlineMs ?? 300_000);
  const one = async (request: DrivenRequest) => {
    for (;;) {
      if (Date.now() > deadline) throw new Error(`request ${request.key} was never answered`);
      const base = options.url();
      if (base === null) {
        await sleep(20);
        continue;
      }
      attempts += 1;
      let status: number;
      let text: string;
      try {
        const response = await fetch(`${base}${request.route}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            "content-type": "application/json",
            "idempotency-key": request.key,
          },
          body: JSON.stringify(request.body),
          signal: AbortSignal.timeout(15_000),
        });
        status = response.status;
        text = await response.text();
      } catch {
        unanswered += 1;
        await sleep(30 + Math.random() * 70);
        continue;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 201 || status === 200) {
        const id = (JSON.parse(text) as { id: string }).id;
        acknowledged.push({ ...request, status, id, responseBody: text });
        options.onProgress?.(acknowledged.length);
        return;
      }
      if (status !== 409 && status < 500) throw new Error(`request ${request.key} got ${status}: ${text}`);
      await sleep(status === 409 ? 200 : 50 + Math.random() * 100);
    }
  };
  const worker = async () => {
    while (next < options.requests.length) {
      const request = options.requests[next++] as DrivenRequest;
      await one(request);
      if (options.paceMs !== undefined) await sleep(options.paceMs);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { requests: options.requests.length, attempts, unanswered, statuses, acknowledged };
}
