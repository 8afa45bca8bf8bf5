import {
  createInvoiceRequestSchema,
  createSubscriptionRequestSchema,
  invoiceResponseSchema,
  PROBLEM_CODES,
  problemSchema,
  subscriptionResponseSchema,
} from "@kopek/core";
import { z } from "zod";
import { componentRef, toComponentSchemas } from "./component-schemas.js";
import { EXAMPLE_INVOICE_REQUEST, EXAMPLE_SUBSCRIPTION_REQUEST } from "./examples.js";
import { type ProblemCode, problemResponses } from "./problem-responses.js";

export interface OpenApiDocumentOptions {
  /** Where clients reach the server; the document's only `servers` entry. */
  readonly publicUrl: string;
}

/** The `/healthz` and `/readyz` body; the server's own, not core's. */
const healthStatusSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "HealthStatus" });

/**
 * Errors every create operation can answer with (API.md 2–4): all of them but those that need an
 * existing resource or a charge. A new code in core is documented on the create operations by default.
 */
const NOT_FROM_CREATE: ReadonlySet<ProblemCode> = new Set(["not_found", "invalid_state", "payment_declined"]);
const CREATE_ERRORS = PROBLEM_CODES.filter((code) => !NOT_FROM_CREATE.has(code));

/**
 * The OpenAPI 3.1 description of the HTTP API, generated from the zod schemas that validate requests
 * and describe responses in `@kopek/core`, and from core's own rendering of every problem.
 */
export function buildOpenApiDocument({ publicUrl }: OpenApiDocumentOptions): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Kopek API",
      version: "1",
      summary: "Subscriptions and invoices over an embeddable payment core",
      description:
        "Every POST needs an `Idempotency-Key`; a replay answers with the stored response, `Idempotent-Replayed: true` " +
        "and 200 instead of 201. Money is a string of whole minor units. Errors are RFC 9457 problem documents " +
        "(`application/problem+json`) whose `code` is stable.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: publicUrl.replace(/\/+$/, "") }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "subscriptions", description: "Recurring charges of a stored payment method" },
      { name: "invoices", description: "One-off payments through a hosted payment page" },
      { name: "operations", description: "Liveness and readiness for orchestrators" },
    ],
    paths: {
      "/v1/subscriptions": {
        post: createOperation({
          operationId: "createSubscription",
          tag: "subscriptions",
          summary: "Create a subscription and charge its first cycle",
          request: createSubscriptionRequestSchema,
          response: subscriptionResponseSchema,
          example: EXAMPLE_SUBSCRIPTION_REQUEST,
          location: "/v1/subscriptions/{id}",
          errors: [...CREATE_ERRORS, "payment_declined"],
        }),
      },
      "/v1/invoices": {
        post: createOperation({
          operationId: "createInvoice",
          tag: "invoices",
          summary: "Create an invoice with a hosted payment page",
          request: createInvoiceRequestSchema,
          response: invoiceResponseSchema,
          example: EXAMPLE_INVOICE_REQUEST,
          location: "/v1/invoices/{id}",
          errors: CREATE_ERRORS,
        }),
      },
      "/healthz": {
        get: healthOperation("getHealth", "Liveness: 200 while the process answers", []),
      },
      "/readyz": {
        get: healthOperation("getReadiness", "Readiness: 200 when storage answers, else 503", [
          "storage_unavailable",
        ]),
      },
    },
    components: {
      schemas: toComponentSchemas([
        createSubscriptionRequestSchema,
        createInvoiceRequestSchema,
        subscriptionResponseSchema,
        invoiceResponseSchema,
        problemSchema,
        healthStatusSchema,
      ]),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "kopek_ + 32 base62 characters + 6 characters of checksum",
          description: "The project's API key as `Authorization: Bearer <key>`.",
        },
      },
      parameters: {
        "Idempotency-Key": {
          name: "Idempotency-Key",
          in: "header",
          required: true,
          description:
            "Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. " +
            "The same key with the same body replays the first answer; with another body it is refused.",
          schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
        },
        "X-Request-Id": {
          name: "X-Request-Id",
          in: "header",
          required: false,
          description: "Your id for this request (1–128 printable characters, no spaces); echoed back.",
          schema: { type: "string", maxLength: 128 },
        },
      },
      headers: {
        "X-Request-Id": {
          description: "The request's id: the one sent when it was sane, else a new one",
          required: true,
          schema: { type: "string" },
        },
        "Idempotent-Replayed": {
          description:
            "`true` when this is the stored answer to an earlier request with the same Idempotency-Key",
          schema: { type: "string", enum: ["true"] },
        },
        Location: { description: "Path of the created resource", required: true, schema: { type: "string" } },
      },
      // Every problem by status, including those no create operation returns (404, 409 invalid_state).
      responses: Object.fromEntries(
        Object.entries(problemResponses(PROBLEM_CODES)).map(([status, response]) => [
          `Problem${status}`,
          response,
        ]),
      ),
    },
  };
}

interface CreateOperationSpec {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly request: z.ZodType;
  readonly response: z.ZodType;
  readonly example: unknown;
  readonly location: string;
  readonly errors: readonly ProblemCode[];
}

function createOperation(spec: CreateOperationSpec) {
  const body = { "application/json": { schema: componentRef(spec.response) } };
  const requestId = { $ref: "#/components/headers/X-Request-Id" };
  const location = { $ref: "#/components/headers/Location" };
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    parameters: [
      { $ref: "#/components/parameters/Idempotency-Key" },
      { $ref: "#/components/parameters/X-Request-Id" },
    ],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: componentRef(spec.request),
          examples: { minimal: { value: spec.example } },
        },
      },
    },
    responses: {
      "200": {
        description: "A replay: the stored answer to the first request with this Idempotency-Key",
        headers: {
          "Idempotent-Replayed": {
            description: "Always `true` here",
            required: true,
            schema: { type: "string", enum: ["true"] },
          },
          Location: location,
          "X-Request-Id": requestId,
        },
        content: body,
      },
      "201": {
        description: `Created; \`Location\` is ${spec.location}`,
        headers: { Location: location, "X-Request-Id": requestId },
        content: body,
      },
      ...problemResponses(spec.errors),
    },
  };
}

function healthOperation(operationId: string, summary: string, errors: readonly ProblemCode[]) {
  return {
    operationId,
    tags: ["operations"],
    summary,
    security: [],
    responses: {
      "200": {
        description: "OK",
        headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
        content: { "application/json": { schema: componentRef(healthStatusSchema) } },
      },
      ...problemResponses([...errors, "internal_error"]),
    },
  };
}
