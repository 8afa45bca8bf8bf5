import {
  createWebhookEndpointRequestSchema,
  deletedWebhookEndpointResponseSchema,
  deliveryAttemptListResponseSchema,
  eventListResponseSchema,
  eventResourceResponseSchema,
  PROBLEM_CODES,
  redeliverEventRequestSchema,
  redeliveryResponseSchema,
  updateWebhookEndpointRequestSchema,
  webhookEndpointListResponseSchema,
  webhookEndpointResponseSchema,
  webhookEndpointWithSecretResponseSchema,
} from "@kopek/core";
import { actionOperation, createOperation, readOperation } from "./operations.js";
import type { ProblemCode } from "./problem-responses.js";

/** API.md 12: events and webhook endpoints through the API. */

const ANY_REQUEST: readonly ProblemCode[] = [
  "bad_request",
  "unauthorized",
  "rate_limited",
  "internal_error",
  "storage_unavailable",
];
/** A POST that reaches storage only (no provider, no money): the request's own refusals and the key's. */
const WRITE_ERRORS: readonly ProblemCode[] = PROBLEM_CODES.filter((code) =>
  [
    ...ANY_REQUEST,
    "invalid_json",
    "idempotency_key_missing",
    "idempotency_key_invalid",
    "idempotency_request_in_progress",
    "idempotency_key_reused",
    "payload_too_large",
    "unsupported_media_type",
    "validation_failed",
    "request_timeout",
    "headers_too_large",
  ].includes(code),
);
const ON_ENDPOINT: readonly ProblemCode[] = [...WRITE_ERRORS, "not_found"];
const ENDPOINTS = "/v1/webhook-endpoints";
const ENDPOINT = `${ENDPOINTS}/{id}`;
const tag = "webhooks";

/** The component schemas of these paths. */
export const WEBHOOK_API_SCHEMAS = [
  createWebhookEndpointRequestSchema,
  updateWebhookEndpointRequestSchema,
  redeliverEventRequestSchema,
  webhookEndpointResponseSchema,
  webhookEndpointWithSecretResponseSchema,
  webhookEndpointListResponseSchema,
  deletedWebhookEndpointResponseSchema,
  eventResourceResponseSchema,
  eventListResponseSchema,
  deliveryAttemptListResponseSchema,
  redeliveryResponseSchema,
];

export function webhookApiPaths() {
  return {
    "/v1/events": {
      get: readOperation({
        operationId: "listEvents",
        tag,
        summary: "List events, newest first",
        description:
          "Every event the project's webhooks carry, kept 30 days, each with the body delivered " +
          "(`type`, `timestamp`, `data`) and its id (the `webhook-id` of its deliveries).",
        response: eventListResponseSchema,
        parameters: ["Limit", "Cursor", "EventType", "EventSince"],
        errors: [...ANY_REQUEST, "validation_failed"],
      }),
    },
    "/v1/events/{id}": {
      get: readOperation({
        operationId: "getEvent",
        tag,
        summary: "Retrieve an event",
        response: eventResourceResponseSchema,
        parameters: ["ResourceId"],
        errors: [...ANY_REQUEST, "not_found"],
      }),
    },
    "/v1/events/{id}/redeliver": {
      post: actionOperation({
        operationId: "redeliverEvent",
        tag,
        summary: "Queue an event again",
        description:
          "Due now, with a fresh retry schedule: to `endpointId` (any endpoint of the project; a disabled one " +
          "keeps it until enabled), or without it to every enabled endpoint that takes the event's type. " +
          "Answers the endpoints it was queued to (none: an empty list). An `endpointId` of no endpoint of " +
          "the project: 422 validation_failed.",
        request: redeliverEventRequestSchema,
        response: redeliveryResponseSchema,
        errors: ON_ENDPOINT,
      }),
    },
    [ENDPOINTS]: {
      get: readOperation({
        operationId: "listWebhookEndpoints",
        tag,
        summary: "List webhook endpoints, newest first",
        response: webhookEndpointListResponseSchema,
        parameters: ["Limit", "Cursor"],
        errors: [...ANY_REQUEST, "validation_failed"],
      }),
      post: createOperation({
        operationId: "createWebhookEndpoint",
        tag,
        summary: "Add a webhook endpoint; its secret is shown once",
        description:
          "The URL must pass the outbound guard (https, a public address; no loopback, private or link-local " +
          "address, no user name): else 422 url_not_allowed with the reason. Every event type unless `events` " +
          "names some. The answer holds the signing `secret`; a replay with the same Idempotency-Key answers " +
          "`secret: null` (it is never stored in clear): rotate it if the first answer was lost.",
        request: createWebhookEndpointRequestSchema,
        response: webhookEndpointWithSecretResponseSchema,
        example: { url: "https://shop.example/kopek/webhooks", events: ["invoice.paid"] },
        location: `${ENDPOINTS}/{id}`,
        errors: [...WRITE_ERRORS, "url_not_allowed"],
      }),
    },
    [ENDPOINT]: {
      get: readOperation({
        operationId: "getWebhookEndpoint",
        tag,
        summary: "Retrieve a webhook endpoint (never its secret)",
        response: webhookEndpointResponseSchema,
        parameters: ["ResourceId"],
        errors: [...ANY_REQUEST, "not_found"],
      }),
      post: actionOperation({
        operationId: "updateWebhookEndpoint",
        tag,
        summary: "Change a webhook endpoint",
        description:
          "The fields sent change. `enabled: false` stops its deliveries (they wait, due); `enabled: true` " +
          "starts them again, also after Kopek disabled it for failing. A new `url` passes the outbound guard " +
          "(422 url_not_allowed).",
        request: updateWebhookEndpointRequestSchema,
        bodyRequired: true,
        response: webhookEndpointResponseSchema,
        errors: [...ON_ENDPOINT, "url_not_allowed"],
      }),
      delete: readOperation({
        operationId: "deleteWebhookEndpoint",
        tag,
        summary: "Delete a webhook endpoint with its pending deliveries and log",
        description: "No Idempotency-Key (not a POST); a second delete is 404.",
        response: deletedWebhookEndpointResponseSchema,
        parameters: ["ResourceId"],
        errors: [...ANY_REQUEST, "not_found"],
      }),
    },
    [`${ENDPOINT}/rotate-secret`]: {
      post: actionOperation({
        operationId: "rotateWebhookEndpointSecret",
        tag,
        summary: "Rotate an endpoint's signing secret with no downtime",
        description:
          "A new `secret`, shown in this answer only (a replay answers `secret: null`). The old one keeps " +
          "signing beside it until `previousSecretExpiresAt` (24 hours): every delivery carries both " +
          "signatures in `webhook-signature`, so a receiver verifying with either accepts it.",
        response: webhookEndpointWithSecretResponseSchema,
        errors: ON_ENDPOINT,
      }),
    },
    [`${ENDPOINT}/deliveries`]: {
      get: readOperation({
        operationId: "listWebhookEndpointDeliveries",
        tag,
        summary: "Each attempt to deliver to an endpoint, newest first",
        response: deliveryAttemptListResponseSchema,
        parameters: ["ResourceId", "Limit", "Cursor", "DeliveryOutcome"],
        errors: [...ANY_REQUEST, "validation_failed", "not_found"],
      }),
    },
  };
}
