import type { Result } from "neverthrow";
import { z } from "zod";
import { MAX_DESCRIPTION_LENGTH, MAX_RETURN_URL_LENGTH } from "../domain/limits.js";
import { EVENT_TYPES } from "../events/domain-event.js";
import { normalizedUrl } from "./normalized-url.js";
import { idSchema, listResponseSchema, timestampSchema } from "./response-schemas.js";
import { type ValidationFailure, validate } from "./validate-body.js";

/** The requests and answers of API.md 12: events and webhook endpoints through the API. */

const eventTypeSchema = z.enum(EVENT_TYPES);

const endpointFields = {
  url: z
    .url({ protocol: /^https?$/, error: "must be an absolute https:// URL" })
    // Stored, shown and requested in its ASCII form; the limit applies to that form.
    .overwrite(normalizedUrl)
    .max(MAX_RETURN_URL_LENGTH)
    .meta({ description: "Where events are POSTed; the outbound guard's rules apply (`url_not_allowed`)" }),
  events: z
    .array(eventTypeSchema)
    .min(1)
    .refine((types) => new Set(types).size === types.length, { error: "must not repeat a type" })
    .nullable()
    .meta({ description: "The event types it receives; null or absent: every type, those added later too" }),
  description: z.string().min(1).max(MAX_DESCRIPTION_LENGTH).nullable(),
};

export const createWebhookEndpointRequestSchema = z
  .strictObject({
    url: endpointFields.url,
    events: endpointFields.events.optional(),
    description: endpointFields.description.optional(),
  })
  .meta({ id: "CreateWebhookEndpointRequest" });

export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>;

export const updateWebhookEndpointRequestSchema = z
  .strictObject({
    url: endpointFields.url.optional(),
    events: endpointFields.events.optional(),
    description: endpointFields.description.optional(),
    enabled: z.boolean().optional().meta({
      description:
        "false stops deliveries (they wait); true starts them again, also after the dispatcher disabled it",
    }),
  })
  .meta({ id: "UpdateWebhookEndpointRequest", description: "The fields sent change; at least one" });

export type UpdateWebhookEndpointRequest = z.infer<typeof updateWebhookEndpointRequestSchema>;

export const redeliverEventRequestSchema = z
  .strictObject({
    endpointId: idSchema.optional().meta({
      description:
        "Only this endpoint (any of the project's); absent: every enabled endpoint the event's type goes to",
    }),
  })
  .meta({ id: "RedeliverEventRequest" });

export type RedeliverEventRequest = z.infer<typeof redeliverEventRequestSchema>;

export function validateCreateWebhookEndpoint(
  body: unknown,
): Result<CreateWebhookEndpointRequest, ValidationFailure> {
  return validate(createWebhookEndpointRequestSchema, null, body, () => {});
}

export function validateUpdateWebhookEndpoint(
  body: unknown,
): Result<UpdateWebhookEndpointRequest, ValidationFailure> {
  return validate(updateWebhookEndpointRequestSchema, null, body, (issues) => {
    if (typeof body === "object" && body !== null && Object.keys(body).length === 0)
      issues.push({ pointer: "#", code: "required", detail: "name at least one field to change" });
  });
}

/** No body, `{}`, or `{ endpointId }`. */
export function validateRedeliverEvent(body: unknown): Result<RedeliverEventRequest, ValidationFailure> {
  return validate(redeliverEventRequestSchema, null, body ?? {}, () => {});
}

export const webhookEndpointResponseSchema = z
  .strictObject({
    id: idSchema,
    url: z.string(),
    events: z.array(eventTypeSchema).nullable().meta({ description: "null: every type" }),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledAt: timestampSchema.nullable(),
    disabledReason: z.string().nullable().meta({
      description: "Why it stopped: through the API, or every attempt of a delivery failed",
    }),
    lastSuccessAt: timestampSchema.nullable().meta({ description: "The last 2xx any delivery to it got" }),
    previousSecretExpiresAt: timestampSchema.nullable().meta({
      description: "Until then the secret a rotation replaced signs beside the new one; null when none does",
    }),
    createdAt: timestampSchema,
  })
  .meta({ id: "WebhookEndpoint", description: "Never carries a secret" });

export const webhookEndpointWithSecretResponseSchema = webhookEndpointResponseSchema
  .extend({
    secret: z.string().nullable().meta({
      description:
        "The signing secret (`whsec_…`), shown only in this answer; null in an idempotent replay (it is not stored with the key)",
    }),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export const webhookEndpointListResponseSchema = listResponseSchema(
  webhookEndpointResponseSchema,
  "WebhookEndpointList",
  "webhook endpoints",
);

export const deletedWebhookEndpointResponseSchema = z
  .strictObject({ id: idSchema, deleted: z.literal(true) })
  .meta({ id: "DeletedWebhookEndpoint" });

export const eventResourceResponseSchema = z
  .strictObject({
    id: idSchema.meta({ description: "The `webhook-id` of every delivery of it" }),
    type: eventTypeSchema,
    timestamp: timestampSchema.meta({ description: "When the change happened" }),
    data: z.record(z.string(), z.unknown()).meta({
      description: "The resource as GET showed it then; the body delivered is `{ type, timestamp, data }`",
    }),
  })
  .meta({ id: "Event" });

export const eventListResponseSchema = listResponseSchema(eventResourceResponseSchema, "EventList", "events");

export const DELIVERY_OUTCOMES = ["delivered", "retry", "failed"] as const;

export const deliveryAttemptResponseSchema = z
  .strictObject({
    id: idSchema,
    eventId: idSchema,
    eventType: eventTypeSchema,
    endpointId: idSchema,
    attemptedAt: timestampSchema,
    outcome: z.enum(DELIVERY_OUTCOMES).meta({
      description: "delivered (a 2xx); retry (failed, tried again later); failed (the last attempt failed)",
    }),
    httpStatus: z
      .int()
      .nullable()
      .meta({ description: "The receiver's status; null when it never answered" }),
    error: z.string().nullable().meta({ description: "Why it failed; null when delivered" }),
    durationMs: z.int().min(0),
  })
  .meta({ id: "DeliveryAttempt" });

export const deliveryAttemptListResponseSchema = listResponseSchema(
  deliveryAttemptResponseSchema,
  "DeliveryAttemptList",
  "delivery attempts",
);

export const redeliveryResponseSchema = z
  .strictObject({
    eventId: idSchema,
    endpointIds: z.array(idSchema).meta({ description: "The endpoints it was queued to, due now" }),
  })
  .meta({ id: "Redelivery" });
