import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Answer, createEmulatorApi, errorAnswer } from "./emulator-api.js";
import { EmulatorMethodSaves, type MethodSaveDecision } from "./emulator-method-saves.js";
import { checkoutPage, decisionOf } from "./emulator-pages.js";
import { type ChargeOutcome, EmulatorBooks, type Json, type Notification } from "./emulator-payments.js";

export { EMULATOR_DECLINE_CARDS, EMULATOR_SUCCESS_CARD } from "./emulator-payments.js";
export type { ChargeOutcome, EmulatorMethodSaves, Json, MethodSaveDecision, Notification };

/**
 * An emulator of YooKassa API v3 as its public documentation describes it (README lists the pages): a
 * real HTTP server on 127.0.0.1 and a random port, for tests of this adapter and of packages using it.
 */
export interface YooKassaEmulator {
  /** The server's origin, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Where the API lives: pass as the adapter's `apiUrl`. */
  readonly apiUrl: string;
  readonly shopId: string;
  readonly secretKey: string;
  /** Payments, refunds and saved methods, and the payer's side (decide, expire, seedSavedMethod). */
  readonly books: EmulatorBooks;
  /**
   * Methods saved with no payment (`POST /payment_methods`, when the `methodSaves` option is on): every
   * one by id (`saves`), and the payer's side (`decide(id, { card } | "decline")`).
   */
  readonly methodSaves: EmulatorMethodSaves;
  /** Every API request received, in order (checkout pages excluded). */
  readonly requests: readonly EmulatorRequest[];
  /** Notifications sent so far. */
  readonly notifications: readonly Notification[];
  /** The next `count` API requests fail: 500 or 429 before anything happens, or no answer at all. */
  /**
   * The next `count` API requests fail with `fault`; `afterProcessing`: done first, then the answer
   * lost (the client sees a fault for an operation that happened). `request`: only requests with
   * this method and path (e.g. `"POST /v3/payments"`, `"POST /v3/refunds"`) take the faults.
   */
  failNext(
    count: number,
    fault: Fault,
    options?: { readonly afterProcessing?: boolean; readonly request?: string },
  ): void;
  /** Where to POST notifications (null: nowhere, the default). */
  notifyTo(url: string | null): void;
  /** Resolves when every notification sent so far has been delivered (or failed). */
  deliveries(): Promise<void>;
  close(): Promise<void>;
}

export type Fault = "500" | "429" | "timeout";

export interface EmulatorRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotenceKey: string | null;
  readonly status: number;
  /** A POST's JSON body as received; absent for a GET, a body that is not JSON, or a fault before reading. */
  readonly body?: unknown;
}

export interface YooKassaEmulatorOptions {
  readonly shopId?: string;
  readonly secretKey?: string;
  /**
   * Whether YooKassa enabled saving a bank card with no payment for the shop (`POST /payment_methods`).
   * Default false: the call is refused 403 `forbidden`, as for a shop without it.
   */
  readonly methodSaves?: boolean;
}

export async function startYooKassaEmulator(
  options: YooKassaEmulatorOptions = {},
): Promise<YooKassaEmulator> {
  const shopId = options.shopId ?? "100500";
  const secretKey = options.secretKey ?? `test_${randomUUID().replaceAll("-", "")}`;
  const expectedAuth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString("base64")}`;
  const requests: EmulatorRequest[] = [];
  const notifications: Notification[] = [];
  const inFlight = new Set<Promise<void>>();
  const faults: { fault: Fault; afterProcessing: boolean; request: string | undefined }[] = [];
  let notifyUrl: string | null = null;
  let origin = "";

  const notify = (notification: Notification) => {
    if (notifyUrl === null) return;
    notifications.push(notification);
    const delivery = fetch(notifyUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        type: "notification",
        event: notification.event,
        object: notification.object,
      }),
    }).then(
      (response) => void response.body?.cancel(),
      () => undefined,
    );
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };
  const books = new EmulatorBooks(shopId, (id) => `${origin}/checkout/${id}`, notify);
  const methodSaves = new EmulatorMethodSaves(
    options.methodSaves ?? false,
    books,
    shopId,
    (id) => `${origin}/checkout/payment-methods/${id}`,
    notify,
  );
  const api = createEmulatorApi(books, methodSaves);

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    const method = request.method ?? "GET";
    const keyHeader = request.headers["idempotence-key"];
    const key = typeof keyHeader === "string" ? keyHeader : null;
    const raw = await readBody(request);
    const index = faults.findIndex(
      (entry) => entry.request === undefined || entry.request === `${method} ${path}`,
    );
    const fault = index === -1 ? undefined : faults.splice(index, 1)[0];
    let body: unknown;
    const log = (status: number) =>
      requests.push({ method, path, idempotenceKey: key, status, ...(body === undefined ? {} : { body }) });
    if (fault !== undefined && !fault.afterProcessing) {
      log(fault.fault === "timeout" ? 0 : Number(fault.fault));
      if (fault.fault === "timeout") return; // never answered; the client gives up
      const code = fault.fault === "429" ? "too_many_requests" : "internal_server_error";
      return send(response, errorAnswer(Number(fault.fault), code, "Emulated fault"));
    }
    if (request.headers.authorization !== expectedAuth) {
      log(401);
      return send(
        response,
        errorAnswer(401, "invalid_credentials", "Authentication by given credentials failed"),
      );
    }
    if (method === "POST") {
      try {
        body = raw === "" ? {} : JSON.parse(raw);
      } catch {
        body = undefined;
        log(400);
        return send(response, errorAnswer(400, "invalid_request", "Request body is not valid JSON"));
      }
    }
    const answer = api.answer(method, path, key, raw, body ?? null, query);
    if (fault !== undefined) {
      log(fault.fault === "timeout" ? 0 : Number(fault.fault));
      if (fault.fault === "timeout") return;
      return send(
        response,
        errorAnswer(Number(fault.fault), "internal_server_error", "Emulated fault after processing"),
      );
    }
    log(answer.status);
    send(response, answer);
  }

  async function handleCheckout(
    request: IncomingMessage,
    response: ServerResponse,
    id: string,
  ): Promise<void> {
    const payment = books.payments.get(id);
    if (payment === undefined) return sendText(response, 404, "text/plain", "No such payment");
    if (request.method === "POST") {
      const decision = decisionOf(new URLSearchParams(await readBody(request)));
      if (decision === null) return sendText(response, 400, "text/plain", "Bad form");
      books.decide(id, decision);
      const returnUrl = (payment.confirmation as { return_url?: string } | undefined)?.return_url;
      if (returnUrl) {
        response.writeHead(303, { location: returnUrl }).end();
        return;
      }
    }
    sendText(response, 200, "text/html; charset=utf-8", checkoutPage(payment));
  }

  // The payer at a method save's confirmation_url (emulator-method-saves.ts).
  async function handleSavePage(request: IncomingMessage, response: ServerResponse, id: string) {
    const method = request.method ?? "GET";
    const form = method === "POST" ? new URLSearchParams(await readBody(request)) : null;
    const answer = methodSaves.page(method, id, form);
    if ("location" in answer) return void response.writeHead(303, { location: answer.location }).end();
    if ("html" in answer) return sendText(response, answer.status, "text/html; charset=utf-8", answer.html);
    sendText(response, answer.status, "text/plain", answer.text);
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://emulator");
    const path = url.pathname;
    const checkout = /^\/checkout\/([^/]+)$/.exec(path);
    const savePage = /^\/checkout\/payment-methods\/([^/]+)$/.exec(path);
    const work = checkout
      ? handleCheckout(request, response, decodeURIComponent(checkout[1] ?? ""))
      : savePage
        ? handleSavePage(request, response, decodeURIComponent(savePage[1] ?? ""))
        : path.startsWith("/v3/")
          ? handleApi(request, response, path, url.searchParams)
          : Promise.resolve(sendText(response, 404, "text/plain", "Not found"));
    work.catch(() => sendText(response, 500, "text/plain", "Emulator error"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    apiUrl: `${origin}/v3`,
    shopId,
    secretKey,
    books,
    methodSaves,
    requests,
    notifications,
    failNext: (count, fault, faultOptions = {}) => {
      for (let i = 0; i < count; i += 1)
        faults.push({
          fault,
          afterProcessing: faultOptions.afterProcessing ?? false,
          request: faultOptions.request,
        });
    },
    notifyTo: (url) => {
      notifyUrl = url;
    },
    deliveries: async () => {
      await Promise.all([...inFlight]);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, answer: Answer): void {
  sendText(response, answer.status, "application/json;charset=UTF-8", JSON.stringify(answer.body));
}

function sendText(response: ServerResponse, status: number, contentType: string, body: string): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { "content-type": contentType }).end(body);
}
