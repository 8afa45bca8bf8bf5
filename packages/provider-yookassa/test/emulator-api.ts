import { randomUUID } from "node:crypto";
import { listPayments } from "./emulator-list.js";
import type { EmulatorMethodSaves } from "./emulator-method-saves.js";
import type { Json } from "./emulator-methods.js";
import { type EmulatorBooks, publicPayment } from "./emulator-payments.js";
import {
  checkCapture,
  checkMethodSaveCreation,
  checkPaymentCreation,
  checkRefundCreation,
  type Invalid,
} from "./emulator-validation.js";

// The emulated API's operations and its idempotence, apart from HTTP: one answer per request.

export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

interface Remembered extends Answer {
  readonly fingerprint: string;
}

// yookassa.ru/developers/using-api/interaction-format: a key of at most 64 characters, kept for 24 hours.
const KEY_MAX_LENGTH = 64;

export function errorAnswer(status: number, code: string, description: string, parameter?: string): Answer {
  return {
    status,
    body: {
      type: "error",
      id: randomUUID(),
      code,
      description,
      ...(parameter === undefined ? {} : { parameter }),
    },
  };
}

export interface EmulatorApi {
  /** Answers one API request whose authentication has been checked. */
  answer(
    method: string,
    path: string,
    key: string | null,
    raw: string,
    body: unknown,
    query?: URLSearchParams,
  ): Answer;
}

export function createEmulatorApi(books: EmulatorBooks, methodSaves: EmulatorMethodSaves): EmulatorApi {
  const remembered = new Map<string, Remembered>();
  const error = errorAnswer;
  const invalidRequest = (problem: Invalid) =>
    error(400, "invalid_request", problem.description, problem.parameter);
  const notFound = () => error(404, "not_found", "Object not found");
  const paymentAnswer = (payment: Invalid | Json | null): Answer => {
    if (payment === null) return notFound();
    return "parameter" in payment
      ? invalidRequest(payment as Invalid)
      : { status: 200, body: publicPayment(payment) };
  };

  function process(method: string, path: string, body: unknown, query: URLSearchParams): Answer {
    const [, resource, id, action] = path.split("/").slice(1); // "/v3/payments/{id}/cancel"
    if (method === "GET" && resource === "payments" && id === undefined) {
      const list = listPayments(books, query);
      return "parameter" in list ? invalidRequest(list as Invalid) : { status: 200, body: list };
    }
    if (method === "POST" && resource === "payments" && id === undefined) {
      const request = checkPaymentCreation(body);
      if ("parameter" in request) return invalidRequest(request);
      const payment = books.createPayment(request);
      if (payment === "unavailable") return error(500, "internal_server_error", "Internal server error");
      return "parameter" in payment
        ? invalidRequest(payment as Invalid)
        : { status: 200, body: publicPayment(payment) };
    }
    if (method === "GET" && resource === "payments" && id !== undefined && action === undefined) {
      const payment = books.read(id);
      return payment === undefined ? notFound() : { status: 200, body: publicPayment(payment) };
    }
    if (method === "POST" && resource === "payments" && id !== undefined && action === "capture") {
      const amount = checkCapture(body);
      if (amount !== null && "parameter" in amount) return invalidRequest(amount);
      return paymentAnswer(books.capture(id, amount));
    }
    if (method === "POST" && resource === "payments" && id !== undefined && action === "cancel") {
      return paymentAnswer(books.cancelByMerchant(id));
    }
    // Создание способа оплаты (…/developers/api, "Способы оплаты"): a bank card saved with no payment.
    // A shop YooKassa has not enabled it for is refused as lacking the right: 403 `forbidden`
    // (…/response-handling/http-codes: "Не хватает прав для совершения операции").
    if (method === "POST" && resource === "payment_methods" && id === undefined) {
      if (!methodSaves.enabled) {
        return error(
          403,
          "forbidden",
          "Saving a payment method without a payment is not enabled for the shop",
        );
      }
      const request = checkMethodSaveCreation(body);
      return "parameter" in request
        ? invalidRequest(request)
        : { status: 200, body: methodSaves.create(request) };
    }
    // Информация о способе оплаты (…/developers/api, "Способы оплаты"): a saved method by its own id.
    if (method === "GET" && resource === "payment_methods" && id !== undefined && action === undefined) {
      // A seeded method whose outcome is "unavailable" stands for an outage: reading it fails too.
      const saved = books.readMethod(id);
      if (saved === "unavailable") return error(500, "internal_server_error", "Internal server error");
      return saved === undefined ? notFound() : { status: 200, body: saved };
    }
    if (method === "POST" && resource === "refunds" && id === undefined) {
      const request = checkRefundCreation(body);
      if ("parameter" in request) return invalidRequest(request);
      const refund = books.createRefund(request);
      return "parameter" in refund ? invalidRequest(refund as Invalid) : { status: 200, body: refund };
    }
    if (method === "GET" && resource === "refunds" && id !== undefined && action === undefined) {
      const refund = books.refunds.get(id);
      return refund === undefined ? notFound() : { status: 200, body: refund };
    }
    return error(404, "not_found", `No such method: ${method} ${path}`);
  }

  // Idempotence (…/interaction-format): the same key and the same request answer what the first one did;
  // the same key with another request is refused. Answers that never reached processing are not kept.
  function idempotent(
    method: string,
    path: string,
    key: string | null,
    raw: string,
    body: unknown,
    query = new URLSearchParams(),
  ): Answer {
    if (method !== "POST") return process(method, path, body, query);
    if (key === null || key === "")
      return error(400, "invalid_request", "Idempotence-Key header is required", "Idempotence-Key");
    if (key.length > KEY_MAX_LENGTH) {
      return error(
        400,
        "invalid_request",
        `Idempotence-Key longer than ${KEY_MAX_LENGTH} characters`,
        "Idempotence-Key",
      );
    }
    const fingerprint = `${method} ${path} ${canonical(body, raw)}`;
    const earlier = remembered.get(key);
    if (earlier !== undefined) {
      if (earlier.fingerprint === fingerprint) return current(earlier);
      return error(
        400,
        "invalid_request",
        "Idempotence key duplicated with another request's parameters",
        "Idempotence-Key",
      );
    }
    const answer = process(method, path, body, query);
    if (answer.status !== 500) remembered.set(key, { ...answer, fingerprint });
    return answer;
  }

  // A repeat answers the object as it stands now, not a stale copy: YooKassa's handling rules ask to
  // "retry the request with the same data and the same idempotency key" to learn a pending payment's
  // outcome (…/response-handling/recommendations), which only works if the repeat tells the current state.
  function current(earlier: Answer): Answer {
    if (earlier.status !== 200 || typeof earlier.body !== "object" || earlier.body === null) return earlier;
    const id = (earlier.body as { id?: unknown }).id;
    if (typeof id !== "string") return earlier;
    const payment = books.payments.get(id);
    if (payment !== undefined) return { status: 200, body: publicPayment(books.read(id) ?? payment) };
    const refund = books.refunds.get(id);
    if (refund !== undefined) return { status: 200, body: refund };
    const method = books.readMethod(id);
    return method === undefined || method === "unavailable" ? earlier : { status: 200, body: method };
  }

  return { answer: idempotent };
}

/** The request's parameters independent of key order and whitespace. */
function canonical(body: unknown, raw: string): string {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, sort(v)]),
          )
        : value;
  return body === null ? raw : JSON.stringify(sort(body));
}
