import { describe, expect, it } from "vitest";
import type { KopekError } from "../domain/errors.js";
import { toProblem } from "./problem.js";

const every: [KopekError, number][] = [
  [{ code: "invalid_json" }, 400],
  [{ code: "bad_request" }, 400],
  [{ code: "request_timeout" }, 408],
  [{ code: "headers_too_large" }, 431],
  [{ code: "idempotency_key_missing" }, 400],
  [{ code: "idempotency_key_invalid", detail: "d" }, 400],
  [{ code: "unauthorized" }, 401],
  [{ code: "payment_declined", detail: "d" }, 402],
  [{ code: "not_found" }, 404],
  [{ code: "idempotency_request_in_progress" }, 409],
  [{ code: "invalid_state", detail: "d" }, 409],
  [{ code: "payload_too_large", limitBytes: 65536 }, 413],
  [{ code: "unsupported_media_type" }, 415],
  [{ code: "validation_failed", errors: [] }, 422],
  [{ code: "idempotency_key_reused" }, 422],
  [{ code: "method_unavailable", detail: "d" }, 422],
  [{ code: "rate_limited", retryAfterSeconds: 3 }, 429],
  [{ code: "internal_error" }, 500],
  [{ code: "provider_error" }, 502],
  [{ code: "provider_unavailable" }, 503],
  [{ code: "storage_unavailable" }, 503],
];

describe("toProblem", () => {
  it.each(every)("renders %j as an RFC 9457 document with status %i", (error, status) => {
    const problem = toProblem(error, "req-1");
    expect(problem.status).toBe(status);
    expect(problem.headers["content-type"]).toBe("application/problem+json");
    expect(problem.body).toMatchObject({
      type: `urn:kopek:problem:${error.code}`,
      status,
      code: error.code,
      requestId: "req-1",
    });
    expect(problem.body.title.length).toBeGreaterThan(0);
    expect(problem.body.detail.length).toBeGreaterThan(0);
    expect("errors" in problem.body).toBe(error.code === "validation_failed");
  });

  it("sets WWW-Authenticate on 401 and Retry-After on 409 in progress and 429", () => {
    expect(toProblem({ code: "unauthorized" }, "r").headers["www-authenticate"]).toBe("Bearer");
    expect(toProblem({ code: "idempotency_request_in_progress" }, "r").headers["retry-after"]).toBe("1");
    expect(toProblem({ code: "rate_limited", retryAfterSeconds: 3 }, "r").headers["retry-after"]).toBe("3");
  });

  it("never shows the cause of a 5xx", () => {
    const cause = new Error("SELECT secret FROM /etc/passwd at stack");
    for (const code of [
      "internal_error",
      "provider_error",
      "provider_unavailable",
      "storage_unavailable",
    ] as const) {
      expect(JSON.stringify(toProblem({ code, cause }, "r").body)).not.toMatch(/SELECT|passwd|stack/);
    }
  });
});
