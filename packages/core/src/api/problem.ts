import type { FieldIssue, KopekError } from "../domain/errors.js";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "../domain/limits.js";

/** An RFC 9457 problem document as Kopek sends it (API.md 4). */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly requestId: string;
  readonly errors?: readonly FieldIssue[];
}

export interface Problem {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ProblemBody;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
export const PROBLEM_TYPE_PREFIX = "urn:kopek:problem:";

interface Rendering {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one mapping from a Kopek error to HTTP. Exhaustive: a new code does not compile until it is
 * given a status here. 5xx details are fixed text; causes go to the server log, never the client.
 */
function render(error: KopekError): Rendering {
  switch (error.code) {
    case "invalid_json":
      return {
        status: 400,
        title: "Malformed JSON",
        detail: error.detail ?? "the request body is not valid JSON",
      };
    case "bad_request":
      return { status: 400, title: "Bad request", detail: "the request is not well-formed HTTP" };
    case "request_timeout":
      return { status: 408, title: "Request timeout", detail: "the request did not arrive in time" };
    case "headers_too_large":
      return {
        status: 431,
        title: "Request header fields too large",
        detail: "the request's headers are larger than the server accepts",
      };
    case "idempotency_key_missing":
      return {
        status: 400,
        title: "Idempotency-Key missing",
        detail: `send an Idempotency-Key header (1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters)`,
      };
    case "idempotency_key_invalid":
      return { status: 400, title: "Idempotency-Key invalid", detail: error.detail };
    case "unauthorized":
      return {
        status: 401,
        title: "Unauthorized",
        detail: "send a valid API key as Authorization: Bearer <key>",
        headers: { "www-authenticate": "Bearer" },
      };
    case "payment_declined":
      return { status: 402, title: "Payment declined", detail: error.detail };
    case "method_not_allowed":
      return {
        status: 405,
        title: "Method not allowed",
        detail: `this resource answers ${error.allow.join(" and ")} only`,
        headers: { allow: error.allow.join(", ") },
      };
    case "not_found":
      return { status: 404, title: "Not found", detail: "no such resource or route" };
    case "idempotency_request_in_progress":
      return {
        status: 409,
        title: "Request in progress",
        detail: "a request with this Idempotency-Key is still executing; retry shortly",
        headers: { "retry-after": "1" },
      };
    case "invalid_state":
      return { status: 409, title: "Invalid state", detail: error.detail };
    case "payload_too_large":
      return {
        status: 413,
        title: "Payload too large",
        detail: `the request body must be at most ${error.limitBytes} bytes`,
      };
    case "unsupported_media_type":
      return { status: 415, title: "Unsupported media type", detail: "send the body as application/json" };
    case "validation_failed": {
      const n = error.errors.length;
      return {
        status: 422,
        title: "Request validation failed",
        detail: `${n} field${n === 1 ? " is" : "s are"} invalid`,
      };
    }
    case "idempotency_key_reused":
      return {
        status: 422,
        title: "Idempotency-Key reused",
        detail: "this Idempotency-Key was already used for a different request; use a new key",
      };
    case "method_unavailable":
      return { status: 422, title: "Method unavailable", detail: error.detail };
    case "refund_exceeds_payment":
      return { status: 422, title: "Refund exceeds payment", detail: error.detail };
    case "invoice_not_usable":
      return { status: 422, title: "Invoice not usable", detail: error.detail };
    case "invoice_already_used":
      return { status: 409, title: "Invoice already used", detail: error.detail };
    case "customer_exists":
      return { status: 409, title: "Customer exists", detail: error.detail };
    case "customer_not_found":
      return { status: 422, title: "Customer not found", detail: error.detail };
    case "url_not_allowed":
      return { status: 422, title: "URL not allowed", detail: error.detail };
    case "rate_limited":
      return {
        status: 429,
        title: "Too many requests",
        detail: "the rate limit of this API key was exceeded",
        headers: { "retry-after": String(error.retryAfterSeconds) },
      };
    case "internal_error":
      return {
        status: 500,
        title: "Internal error",
        detail: "something went wrong on our side; it has been logged",
      };
    case "provider_error":
      return {
        status: 502,
        title: "Payment provider error",
        detail: "the payment provider answered with an error; retry later",
      };
    case "provider_unavailable":
      return {
        status: 503,
        title: "Payment provider unavailable",
        detail: "the payment provider could not be reached; retry later",
        headers: { "retry-after": "1" },
      };
    case "storage_unavailable":
      return {
        status: 503,
        title: "Service unavailable",
        detail: "storage is unavailable; retry later",
        headers: { "retry-after": "1" },
      };
  }
}

/** Renders a Kopek error as status, headers and an RFC 9457 body. */
export function toProblem(error: KopekError, requestId: string): Problem {
  const { status, title, detail, headers } = render(error);
  const body: ProblemBody = {
    type: PROBLEM_TYPE_PREFIX + error.code,
    title,
    status,
    code: error.code,
    detail,
    requestId,
    ...(error.code === "validation_failed" ? { errors: error.errors } : {}),
  };
  return { status, headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers }, body };
}
