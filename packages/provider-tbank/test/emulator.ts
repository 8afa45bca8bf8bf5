import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { signed } from "../src/token.js";
import { createEmulatorApi } from "./emulator-api.js";
import {
  type ChargeOutcome,
  type EmulatedPayment,
  type EmulatedRefund,
  EmulatorBooks,
  type NotificationFields,
} from "./emulator-books.js";
import { type AddCardUrls, EmulatorCardBindings } from "./emulator-cards.js";
import { handleAddCardPage } from "./emulator-cards-page.js";
import { deliver, readBody, type SentNotification, send, sendText } from "./emulator-http.js";
import { handleCheckoutPage } from "./emulator-pages.js";
import { EmulatorAccounts, type RequestKeyForm } from "./emulator-sbp.js";
import { handleBindingPage } from "./emulator-sbp-page.js";
import { answerProblems, notificationProblems, requestProblems } from "./spec-check.js";

export { EMULATOR_DECLINE_CARDS, EMULATOR_SUCCESS_CARD } from "./emulator-books.js";
export type { ChargeOutcome, EmulatedPayment, EmulatedRefund, SentNotification };

/**
 * An emulator of T-Bank acquiring API v2 as its public documentation describes it (README lists the
 * pages): a real HTTP server on 127.0.0.1 and a random port, for tests of this adapter and of packages using it.
 */
export interface TBankEmulator {
  /** The server's origin, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Where the API lives: pass as the adapter's `apiUrl`. */
  readonly apiUrl: string;
  readonly terminalKey: string;
  readonly password: string;
  /** Payments, refunds and saved cards, and the payer's side (decide, expire, seedSavedCard). */
  readonly books: EmulatorBooks;
  /** SBP accounts bound with AddAccountQr, and the bank app's side (confirm, seedBoundAccount). */
  readonly accounts: EmulatorAccounts;
  /**
   * Customers and cards bound with AddCard, and the payer's side of the form at `PaymentURL`
   * (`/addcard/<RequestKey>`: decide); `addCardUrls` is the terminal's Success/Fail Add Card URL (settable).
   */
  readonly cardBindings: EmulatorCardBindings;
  /** Every API request received, in order (pages excluded). */
  readonly requests: readonly EmulatorRequest[];
  /** Notifications sent so far, with whether the merchant answered 200 `OK`. */
  readonly notifications: readonly SentNotification[];
  /**
   * The next `count` API requests (of `method`, if given) fail: 500 or no answer, before or after the
   * operation was done.
   */
  failNext(
    count: number,
    fault: Fault,
    options?: { readonly afterProcessing?: boolean; readonly method?: string },
  ): void;
  /** The terminal's notification URL, used when Init named none (null: nowhere, the default). */
  notifyTo(url: string | null): void;
  /**
   * Where a request, an answer or a notification departed from T-Bank's OpenAPI document ([T],
   * test/spec): taken (and emptied) after each test by test/spec-setup.ts, which fails the test on any.
   */
  readonly specViolations: string[];
  /**
   * An hour passes: every notification not yet answered 200 `OK` is sent again ([T] "Уведомления об
   * операциях": "повторно отправлять это уведомление раз в час в течение 24 часов"), at most 24 times each.
   */
  redeliver(): Promise<void>;
  /** Resolves when every notification sent so far has been delivered (or failed). */
  deliveries(): Promise<void>;
  close(): Promise<void>;
}

/** `garbled`: a 200 that says `Success: true` and nothing else the method answers. */
export type Fault = "500" | "timeout" | "garbled";

export interface EmulatorRequest {
  readonly method: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly status: number;
}

// [T]: a notification not answered OK is sent again once an hour for 24 hours, then archived.
const REDELIVERIES_MAX = 24;

export interface TBankEmulatorOptions {
  readonly terminalKey?: string;
  readonly password?: string;
  /** How CheckOrder answers an order it never saw: error 335 (the default) or an empty `Payments`. */
  readonly unknownOrder?: "error" | "empty";
  /** How an SBP Cancel answers: done at once (the default) or `REFUNDING`, done when GetState next reads it. */
  readonly sbpRefunds?: "done" | "refunding";
  /** How AddAccountQr writes a RequestKey: a UUID (the default) or a number, both as [T] has it. */
  readonly requestKeys?: RequestKeyForm;
  /** The terminal's "Success Add Card URL" / "Fail Add Card URL" (also `cardBindings.addCardUrls`). */
  readonly addCardUrls?: AddCardUrls;
  /** How a second AddCustomer of a customer answers ([T] is silent): taken (the default) or refused (7). */
  readonly repeatedCustomer?: "ok" | "refused";
}

// Every emulator not yet closed, so a test's violations are found whichever emulator saw them.
const liveEmulators = new Set<TBankEmulator>();

/** The spec violations every live emulator saw since the last call, emptied. */
export function takeSpecViolations(): string[] {
  return [...liveEmulators].flatMap((emulator) => emulator.specViolations.splice(0));
}

export async function startTBankEmulator(options: TBankEmulatorOptions = {}): Promise<TBankEmulator> {
  const terminalKey = options.terminalKey ?? "1700000000000DEMO";
  const password = options.password ?? randomUUID().replaceAll("-", "").slice(0, 20);
  const requests: EmulatorRequest[] = [];
  const notifications: SentNotification[] = [];
  const specViolations: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const faults: { fault: Fault; afterProcessing: boolean; method: string | undefined }[] = [];
  let terminalNotifyUrl: string | null = null;
  let origin = "";

  // developer.tbank.ru/eacq/intro/developer/notification: a POST of the payment's fields signed with
  // Token like a request; the merchant answers 200 with the body OK.
  function notify(target: { readonly NotificationURL: string | null }, fields: NotificationFields): void {
    const url = target.NotificationURL ?? terminalNotifyUrl;
    if (url === null) return;
    const body = signed(fields, password);
    specViolations.push(...notificationProblems(body));
    const sent: SentNotification = { url, body, answeredOk: null, attempts: 0 };
    notifications.push(sent);
    deliver(sent, inFlight);
  }

  const books = new EmulatorBooks(terminalKey, notify);
  // An account binding names no payment: it is notified to the terminal's notification URL.
  const accounts = new EmulatorAccounts(
    terminalKey,
    books,
    (fields) => notify({ NotificationURL: null }, fields),
    options.requestKeys,
  );
  // A card binding names no payment Kopek made: NotificationAddCard goes to the terminal's URL too.
  const cardBindings = new EmulatorCardBindings(
    terminalKey,
    books,
    (fields) => notify({ NotificationURL: null }, fields),
    options,
  );
  const api = createEmulatorApi(
    books,
    {
      terminalKey,
      password,
      unknownOrder: options.unknownOrder ?? "error",
      sbpRefunds: options.sbpRefunds ?? "done",
    },
    {
      checkout: (id) => `${origin}/new/${id}`,
      qr: (id) => `${origin}/qr/${id}`,
      binding: (requestKey) => `${origin}/bind/${requestKey}`,
      addCard: (requestKey) => `${origin}/addcard/${requestKey}`,
    },
    accounts,
    cardBindings,
  );

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
  ): Promise<void> {
    const raw = await readBody(request);
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>;
    } catch {
      body = {};
    }
    const index = faults.findIndex((entry) => entry.method === undefined || entry.method === method);
    const fault = index === -1 ? undefined : faults.splice(index, 1)[0];
    const log = (status: number) => requests.push({ method, body, status });
    if (fault?.fault === "garbled") {
      log(200);
      return send(response, {
        status: 200,
        body: { Success: true, ErrorCode: "0", TerminalKey: terminalKey },
      });
    }
    if (fault !== undefined && !fault.afterProcessing) {
      log(fault.fault === "timeout" ? 0 : 500);
      if (fault.fault === "timeout") return;
      return send(response, {
        status: 500,
        body: { Success: false, ErrorCode: "9999", Message: "Emulated fault" },
      });
    }
    const answer =
      request.method === "POST"
        ? api.answer(method, body)
        : { status: 405, body: { Success: false, ErrorCode: "405", Message: "POST only" } };
    if (fault !== undefined) {
      log(fault.fault === "timeout" ? 0 : 500);
      if (fault.fault === "timeout") return;
      return send(response, {
        status: 500,
        body: { Success: false, ErrorCode: "9999", Message: "Emulated fault after processing" },
      });
    }
    log(answer.status);
    if (request.method === "POST") specViolations.push(...requestProblems(method, body));
    if (answer.status === 200) specViolations.push(...answerProblems(method, answer.body));
    send(response, answer);
  }

  type Handler = (
    match: RegExpExecArray,
    request: IncomingMessage,
    response: ServerResponse,
  ) => Promise<void>;
  const routes: readonly (readonly [RegExp, Handler])[] = [
    [
      /^\/(new|qr)\/([0-9]+)$/,
      (m, req, res) => handleCheckoutPage(req, res, books, m[1] ?? "new", m[2] ?? ""),
    ],
    [
      /^\/bind\/([0-9a-f-]{36}|[0-9]{1,20})$/,
      (m, req, res) => handleBindingPage(req, res, accounts, m[1] ?? ""),
    ],
    [/^\/addcard\/([0-9a-f-]{36})$/, (m, req, res) => handleAddCardPage(req, res, cardBindings, m[1] ?? "")],
    [/^\/v2\/([A-Za-z]+)$/, (m, req, res) => handleApi(req, res, m[1] ?? "")],
  ];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://emulator").pathname;
    for (const [pattern, handle] of routes) {
      const match = pattern.exec(path);
      if (match === null) continue;
      handle(match, request, response).catch(() => sendText(response, 500, "text/plain", "Emulator error"));
      return;
    }
    sendText(response, 404, "text/plain", "Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const emulator: TBankEmulator = {
    url: origin,
    apiUrl: `${origin}/v2`,
    terminalKey,
    password,
    books,
    accounts,
    cardBindings,
    requests,
    notifications,
    specViolations,
    failNext: (count, fault, faultOptions = {}) => {
      for (let i = 0; i < count; i += 1)
        faults.push({
          fault,
          afterProcessing: faultOptions.afterProcessing ?? false,
          method: faultOptions.method,
        });
    },
    notifyTo: (url) => {
      terminalNotifyUrl = url;
    },
    redeliver: async () => {
      await Promise.all([...inFlight]);
      for (const sent of notifications)
        if (sent.answeredOk === false && sent.attempts <= REDELIVERIES_MAX) deliver(sent, inFlight);
      await Promise.all([...inFlight]);
    },
    deliveries: async () => {
      await Promise.all([...inFlight]);
    },
    close: async () => {
      liveEmulators.delete(emulator);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Outside this package's tests (no test/spec-setup.ts), a violation fails the suite here.
      if (specViolations.length > 0)
        throw new Error(`T-Bank emulator: departures from [T]:\n${specViolations.join("\n")}`);
    },
  };
  liveEmulators.add(emulator);
  return emulator;
}
