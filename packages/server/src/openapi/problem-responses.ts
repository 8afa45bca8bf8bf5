import {
  type KopekError,
  type PROBLEM_CODES,
  problemSchema,
  STORED_OUTCOME_CODES,
  toProblem,
} from "@kopek/core";
import { componentRef } from "./component-schemas.js";

export type ProblemCode = (typeof PROBLEM_CODES)[number];

const EXAMPLE_REQUEST_ID = "0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d";

/** One error of each code, as the code paths produce them; rendered by core's `toProblem`. */
function sampleError(code: ProblemCode): KopekError {
  switch (code) {
    case "idempotency_key_invalid":
      return { code, detail: "Idempotency-Key must be 1 to 255 printable ASCII characters" };
    case "payment_declined":
      return { code, detail: "the provider declined the charge" };
    case "invalid_state":
      return { code, detail: "a paid invoice cannot be canceled" };
    case "payload_too_large":
      return { code, limitBytes: 65536 };
    case "validation_failed":
      return {
        code,
        errors: [
          { pointer: "#/amount/amount", code: "invalid_format", detail: "must be a string of digits" },
          { pointer: "#/methods", code: "mutually_exclusive", detail: "send either method or methods" },
        ],
      };
    case "method_unavailable":
      return { code, detail: "the project's provider cannot charge a stored card" };
    case "refund_exceeds_payment":
      return { code, detail: "at most 50000 RUB (minor units) remains refundable of this payment" };
    case "invoice_not_usable":
      return { code, detail: "the invoice is not paid" };
    case "invoice_already_used":
      return { code, detail: "the invoice already backs subscription 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b" };
    case "customer_exists":
      return { code, detail: "customer 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b has this externalId" };
    case "customer_not_found":
      return { code, detail: "no customer of this project has this id" };
    case "url_not_allowed":
      return {
        code,
        detail: "the URL must not point at a private address (only public addresses are reached)",
      };
    case "rate_limited":
      return { code, retryAfterSeconds: 1 };
    case "method_not_allowed":
      return { code, allow: ["GET", "POST"] };
    default:
      return { code };
  }
}

/** The status core answers each code with, taken from `toProblem` so it is never restated here. */
export function statusOf(code: ProblemCode): number {
  return toProblem(sampleError(code), EXAMPLE_REQUEST_ID).status;
}

/** Codes a replay can return: refusals stored with the idempotency record (API.md 3). */
const REPLAYABLE: ReadonlySet<ProblemCode> = new Set(STORED_OUTCOME_CODES);

const HEADER_NAMES: Readonly<Record<string, string>> = {
  "retry-after": "Retry-After",
  "www-authenticate": "WWW-Authenticate",
  allow: "Allow",
};
const HEADER_DESCRIPTIONS: Readonly<Record<string, { description: string }>> = {
  "retry-after": { description: "Seconds to wait before retrying" },
  "www-authenticate": { description: "Always `Bearer`" },
  allow: { description: "The methods the path answers" },
};

/**
 * OpenAPI responses for the given codes, grouped by status, each with an example rendered by core.
 * The documented headers are the ones core's rendering really sets (`Retry-After`, `WWW-Authenticate`),
 * and `Idempotent-Replayed` on a POST's refusals that are stored and replayed (`idempotent`).
 */
export function problemResponses(
  codes: readonly ProblemCode[],
  { idempotent = true }: { readonly idempotent?: boolean } = {},
): Record<string, unknown> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const rendered = group.map((code) => toProblem(sampleError(code), EXAMPLE_REQUEST_ID));
    const headers: Record<string, unknown> = {
      "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
    };
    for (const name of new Set(rendered.flatMap((problem) => Object.keys(problem.headers)))) {
      if (name === "content-type") continue;
      const required = rendered.every((problem) => name in problem.headers);
      headers[HEADER_NAMES[name] ?? name] = {
        ...HEADER_DESCRIPTIONS[name],
        required,
        schema: { type: "string" },
      };
    }
    if (idempotent && group.some((code) => REPLAYABLE.has(code))) {
      headers["Idempotent-Replayed"] = { $ref: "#/components/headers/Idempotent-Replayed" };
    }
    responses[String(status)] = {
      description: group.map((code) => `\`${code}\``).join(", "),
      headers,
      content: {
        "application/problem+json": {
          schema: componentRef(problemSchema),
          examples: Object.fromEntries(
            rendered.map((problem) => [problem.body.code, { value: problem.body }]),
          ),
        },
      },
    };
  }
  return responses;
}
