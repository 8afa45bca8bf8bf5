import type { z } from "zod";
import { componentRef } from "./component-schemas.js";
import { type ProblemCode, problemResponses } from "./problem-responses.js";

const requestIdHeader = { $ref: "#/components/headers/X-Request-Id" };
const locationHeader = { $ref: "#/components/headers/Location" };
const idempotencyParameters = [
  { $ref: "#/components/parameters/Idempotency-Key" },
  { $ref: "#/components/parameters/X-Request-Id" },
];
const json = (schema: z.ZodType) => ({ "application/json": { schema: componentRef(schema) } });

interface OperationBase {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly response: z.ZodType;
  readonly errors: readonly ProblemCode[];
}

export interface CreateOperationSpec extends OperationBase {
  readonly request: z.ZodType;
  readonly example: unknown;
  readonly location: string;
  /**
   * A create under an existing resource (`/v1/payments/{id}/refunds`): the path's id is a parameter,
   * and the body may be left out (every field is optional).
   */
  readonly underResource?: boolean;
}

/** A create POST: 201 with Location, 200 for a replay, the body's schema and an example. */
export function createOperation(spec: CreateOperationSpec) {
  return {
    ...heading(spec),
    parameters:
      spec.underResource === true
        ? [{ $ref: "#/components/parameters/ResourceId" }, ...idempotencyParameters]
        : idempotencyParameters,
    requestBody: {
      required: spec.underResource !== true,
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
          Location: locationHeader,
          "X-Request-Id": requestIdHeader,
        },
        content: json(spec.response),
      },
      "201": {
        description: `Created; \`Location\` is ${spec.location}`,
        headers: { Location: locationHeader, "X-Request-Id": requestIdHeader },
        content: json(spec.response),
      },
      ...problemResponses(spec.errors),
    },
  };
}

/**
 * A state change of an existing resource (a cancel, a change): 200 both the first time and on a
 * replay. Without `request`, an optional empty body; with it, that body, required when `bodyRequired`.
 */
export function actionOperation(
  spec: OperationBase & {
    readonly request?: z.ZodType;
    readonly bodyRequired?: boolean;
    /** 201 for an action that makes something (a method-update link); 200 otherwise. */
    readonly status?: 200 | 201;
  },
) {
  const requestBody =
    spec.request === undefined
      ? {
          required: false,
          description: "No body, an empty one, or `{}`: the operation takes no fields",
          content: {
            "application/json": { schema: { type: "object", properties: {}, additionalProperties: false } },
          },
        }
      : { required: spec.bodyRequired === true, content: json(spec.request) };
  return {
    ...heading(spec),
    parameters: [{ $ref: "#/components/parameters/ResourceId" }, ...idempotencyParameters],
    requestBody,
    responses: {
      [String(spec.status ?? 200)]: {
        description: "Done; a replay of the first request with this Idempotency-Key answers the same",
        headers: {
          "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" },
          "X-Request-Id": requestIdHeader,
        },
        content: json(spec.response),
      },
      ...problemResponses(spec.errors),
    },
  };
}

/** A GET of one resource or of a page; `parameters` are references to `components.parameters`. */
export function readOperation(spec: OperationBase & { readonly parameters: readonly string[] }) {
  return {
    ...heading(spec),
    parameters: [...spec.parameters, "X-Request-Id"].map((name) => ({
      $ref: `#/components/parameters/${name}`,
    })),
    responses: {
      "200": {
        description: "OK",
        headers: { "X-Request-Id": requestIdHeader },
        content: json(spec.response),
      },
      ...problemResponses(spec.errors, { idempotent: false }),
    },
  };
}

/** `/healthz` and `/readyz`: public, no `/v1` conventions. */
export function healthOperation(
  spec: Omit<OperationBase, "tag"> & { readonly errors: readonly ProblemCode[] },
) {
  return {
    operationId: spec.operationId,
    tags: ["operations"],
    summary: spec.summary,
    security: [],
    responses: {
      "200": {
        description: "OK",
        headers: { "X-Request-Id": requestIdHeader },
        content: json(spec.response),
      },
      ...problemResponses(["bad_request", ...spec.errors, "internal_error"], { idempotent: false }),
    },
  };
}

function heading(spec: OperationBase) {
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
  };
}
