import { type Collection, PROBLEM_CODES, ROUTES, type Route } from "@kopek/core";
import type { z } from "zod";
import { actionOperation, createOperation, readOperation } from "./operations.js";
import type { ProblemCode } from "./problem-responses.js";

/** Errors a request can meet before its operation runs: authentication, rate limit, a failure. */
const ANY_REQUEST: readonly ProblemCode[] = [
  // A request no route can read: a repeated or reserved query parameter (`?__proto__=1`), a bad URL.
  "bad_request",
  "unauthorized",
  "rate_limited",
  "internal_error",
  "storage_unavailable",
];
/** A subscription made from a paid invoice (API.md 10.5) is refused with these; nothing else is. */
const FROM_INVOICE_ONLY: readonly ProblemCode[] = ["invoice_not_usable", "invoice_already_used"];
/** Only a customer's create or change answers these (API.md 11.1); others name theirs in `extraErrors`. */
const CUSTOMER_CODES: readonly ProblemCode[] = ["customer_exists", "customer_not_found"];
/**
 * Errors every create operation can answer with (API.md 2–4): all of them but those that need an
 * existing resource, a charge or an invoice to subscribe from. A new code in core is documented on
 * the create operations by default.
 */
const NOT_FROM_CREATE: ReadonlySet<ProblemCode> = new Set([
  // Answered to methods no operation has (QUERY, PUT…), never by an operation.
  "method_not_allowed",
  "not_found",
  "invalid_state",
  "payment_declined",
  "refund_exceeds_payment",
  ...FROM_INVOICE_ONLY,
  ...CUSTOMER_CODES,
]);
const CREATE_ERRORS = PROBLEM_CODES.filter((code) => !NOT_FROM_CREATE.has(code));
/** A cancel is a POST on an existing resource that calls no provider. */
const NOT_FROM_CANCEL: ReadonlySet<ProblemCode> = new Set([
  "method_not_allowed",
  "payment_declined",
  "method_unavailable",
  "provider_error",
  "provider_unavailable",
  "refund_exceeds_payment",
  ...FROM_INVOICE_ONLY,
  ...CUSTOMER_CODES,
]);
const CANCEL_ERRORS = PROBLEM_CODES.filter((code) => !NOT_FROM_CANCEL.has(code));
/**
 * A refund is a POST on an existing payment; the provider's failures leave it pending or canceled
 * rather than failing the request (API.md 10.6).
 */
const REFUND_ERRORS: readonly ProblemCode[] = [...CANCEL_ERRORS, "refund_exceeds_payment"];

export interface ResourcePathsSpec {
  readonly collection: Collection;
  readonly tag: string;
  readonly singular: string;
  readonly resource: z.ZodType;
  readonly list: z.ZodType;
  readonly listParameters: readonly string[];
  /** For a collection with a create route. */
  readonly create?: {
    readonly summary: string;
    readonly request: z.ZodType;
    readonly example: unknown;
    readonly extraErrors: readonly ProblemCode[];
  };
  /** What canceling does to this resource, for a collection with a cancel route; its body, if any. */
  readonly cancel?: { readonly description: string; readonly request?: z.ZodType };
  /** For a collection whose resources change with `POST /{id}`. */
  readonly update?: {
    readonly summary: string;
    readonly description: string;
    readonly request: z.ZodType;
    readonly extraErrors?: readonly ProblemCode[];
  };
  /** For a collection whose resources pause and resume (subscriptions, API.md 11.4). */
  readonly pause?: { readonly description: string };
  readonly resume?: { readonly description: string };
  /** For a collection whose resources take a payer's new method (subscriptions, API.md 11.5). */
  readonly methodUpdate?: { readonly description: string; readonly response: z.ZodType };
  /** For a collection whose resources' personal data is erased (customers, API.md 11.1). */
  readonly erase?: { readonly summary: string; readonly description: string };
  /** For a collection whose resources are refunded (payments): the refund they make. */
  readonly refund?: {
    readonly summary: string;
    readonly description: string;
    readonly request: z.ZodType;
    readonly response: z.ZodType;
    readonly example: unknown;
  };
}

function required<T>(value: T | undefined, what: string, route: Route): T {
  if (value === undefined)
    throw new Error(`openapi: ${route.method} ${route.path} needs ${what} in its spec`);
  return value;
}

/** The OpenAPI path of a route of core's table (`ROUTES`): its operation, by what the route does. */
function operationOf(route: Route, spec: ResourcePathsSpec) {
  const { singular, tag } = spec;
  const article = /^[AEIOU]/.test(singular) ? "an" : "a";
  switch (route.action) {
    case "list":
      return readOperation({
        operationId: `list${singular}s`,
        tag,
        summary: `List ${spec.collection}, newest first`,
        description:
          "A page of at most `limit`; `nextCursor` (null on the last page) fetches the next, older one.",
        response: spec.list,
        parameters: spec.listParameters,
        errors: [...ANY_REQUEST, "validation_failed"],
      });
    case "create": {
      const create = required(spec.create, "`create`", route);
      return createOperation({
        operationId: `create${singular}`,
        tag,
        summary: create.summary,
        request: create.request,
        response: spec.resource,
        example: create.example,
        location: `${route.path}/{id}`,
        errors: [...CREATE_ERRORS, ...create.extraErrors],
      });
    }
    case "get":
      return readOperation({
        operationId: `get${singular}`,
        tag,
        summary: `Retrieve ${article} ${singular.toLowerCase()}`,
        response: spec.resource,
        parameters: ["ResourceId"],
        errors: [...ANY_REQUEST, "not_found"],
      });
    case "update": {
      const update = required(spec.update, "`update`", route);
      return actionOperation({
        operationId: `update${singular}`,
        tag,
        summary: update.summary,
        description: update.description,
        request: update.request,
        bodyRequired: true,
        response: spec.resource,
        errors: [...CANCEL_ERRORS, ...(update.extraErrors ?? [])],
      });
    }
    case "cancel": {
      const cancel = required(spec.cancel, "`cancel`", route);
      return actionOperation({
        operationId: `cancel${singular}`,
        tag,
        summary: `Cancel ${article} ${singular.toLowerCase()}`,
        description: cancel.description,
        ...(cancel.request === undefined ? {} : { request: cancel.request }),
        response: spec.resource,
        errors: CANCEL_ERRORS,
      });
    }
    case "erase": {
      const erase = required(spec.erase, "`erase`", route);
      return actionOperation({
        operationId: `erase${singular}`,
        tag,
        summary: erase.summary,
        description: erase.description,
        response: spec.resource,
        errors: CANCEL_ERRORS.filter((code) => code !== "invalid_state"),
      });
    }
    case "pause": {
      const pause = required(spec.pause, "`pause`", route);
      return actionOperation({
        operationId: `pause${singular}`,
        tag,
        summary: `Pause ${article} ${singular.toLowerCase()} at the end of its paid period`,
        description: pause.description,
        response: spec.resource,
        errors: CANCEL_ERRORS,
      });
    }
    case "resume": {
      const resume = required(spec.resume, "`resume`", route);
      return actionOperation({
        operationId: `resume${singular}`,
        tag,
        summary: `Resume ${article} ${singular.toLowerCase()}`,
        description: resume.description,
        response: spec.resource,
        // A paused one is charged at once.
        errors: [...CANCEL_ERRORS, "payment_declined", "provider_error", "provider_unavailable"],
      });
    }
    case "method-update": {
      const methodUpdate = required(spec.methodUpdate, "`methodUpdate`", route);
      return actionOperation({
        operationId: `create${singular}MethodUpdate`,
        tag,
        summary: "Make a link where the payer saves a new payment method",
        description: methodUpdate.description,
        response: methodUpdate.response,
        status: 201,
        errors: [...CANCEL_ERRORS, "method_unavailable"],
      });
    }
    case "refund": {
      const refund = required(spec.refund, "`refund`", route);
      return createOperation({
        operationId: "createRefund",
        tag: "refunds",
        summary: refund.summary,
        description: refund.description,
        request: refund.request,
        response: refund.response,
        example: refund.example,
        location: "/v1/refunds/{id}",
        errors: REFUND_ERRORS,
        underResource: true,
      });
    }
  }
}

/** A collection's paths, one per route of core's table (API.md 5, 6). */
export function resourcePaths(spec: ResourcePathsSpec) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES.filter((r) => r.collection === spec.collection)) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operationOf(route, spec);
  }
  return paths;
}
