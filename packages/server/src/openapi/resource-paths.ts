import { PROBLEM_CODES } from "@kopek/core";
import type { z } from "zod";
import { actionOperation, createOperation, readOperation } from "./operations.js";
import type { ProblemCode } from "./problem-responses.js";

/** Errors a request can meet before its operation runs: authentication, rate limit, a failure. */
const ANY_REQUEST: readonly ProblemCode[] = [
  "unauthorized",
  "rate_limited",
  "internal_error",
  "storage_unavailable",
];
/**
 * Errors every create operation can answer with (API.md 2–4): all of them but those that need an
 * existing resource or a charge. A new code in core is documented on the create operations by default.
 */
const NOT_FROM_CREATE: ReadonlySet<ProblemCode> = new Set(["not_found", "invalid_state", "payment_declined"]);
const CREATE_ERRORS = PROBLEM_CODES.filter((code) => !NOT_FROM_CREATE.has(code));
/** A cancel is a POST on an existing resource that calls no provider. */
const NOT_FROM_CANCEL: ReadonlySet<ProblemCode> = new Set([
  "payment_declined",
  "method_unavailable",
  "provider_error",
  "provider_unavailable",
]);
const CANCEL_ERRORS = PROBLEM_CODES.filter((code) => !NOT_FROM_CANCEL.has(code));

export interface ResourcePathsSpec {
  readonly collection: string;
  readonly tag: string;
  readonly singular: string;
  readonly resource: z.ZodType;
  readonly list: z.ZodType;
  readonly listParameters: readonly string[];
  readonly create: {
    readonly summary: string;
    readonly request: z.ZodType;
    readonly example: unknown;
    readonly extraErrors: readonly ProblemCode[];
  };
  /** What canceling does to this resource. */
  readonly cancel: string;
}

/** The five operations of a collection: create, list, get, cancel (API.md 5, 6). */
export function resourcePaths(spec: ResourcePathsSpec) {
  const base = `/v1/${spec.collection}`;
  const { singular, tag } = spec;
  return {
    [base]: {
      get: readOperation({
        operationId: `list${singular}s`,
        tag,
        summary: `List ${spec.collection}, newest first`,
        description:
          "A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.",
        response: spec.list,
        parameters: spec.listParameters,
        errors: [...ANY_REQUEST, "validation_failed"],
      }),
      post: createOperation({
        operationId: `create${singular}`,
        tag,
        summary: spec.create.summary,
        request: spec.create.request,
        response: spec.resource,
        example: spec.create.example,
        location: `${base}/{id}`,
        errors: [...CREATE_ERRORS, ...spec.create.extraErrors],
      }),
    },
    [`${base}/{id}`]: {
      get: readOperation({
        operationId: `get${singular}`,
        tag,
        summary: `Retrieve a${/^[AEIOU]/.test(singular) ? "n" : ""} ${singular.toLowerCase()}`,
        response: spec.resource,
        parameters: ["ResourceId"],
        errors: [...ANY_REQUEST, "not_found"],
      }),
    },
    [`${base}/{id}/cancel`]: {
      post: actionOperation({
        operationId: `cancel${singular}`,
        tag,
        summary: `Cancel a${/^[AEIOU]/.test(singular) ? "n" : ""} ${singular.toLowerCase()}`,
        description: spec.cancel,
        response: spec.resource,
        errors: CANCEL_ERRORS,
      }),
    },
  };
}
