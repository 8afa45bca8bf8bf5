import { EVENT_TYPES, type EventType } from "@kopek/core";

/** `components.parameters`: the Standard Webhooks headers on every delivery (docs/api.md, Events). */
export const WEBHOOK_PARAMETERS = {
  "webhook-id": {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The event's id (a UUIDv7), the same on every retry: deduplicate on it.",
    schema: { type: "string" },
  },
  "webhook-timestamp": {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds of this attempt; refuse one too far from now (verifyWebhook's tolerance).",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  "webhook-signature": {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      'v1, + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" keyed with the endpoint\'s ' +
      "whsec_ secret. Verify it on the raw body before parsing (verifyWebhook in @kopek/core).",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$" },
  },
} as const;

const WHAT_HAPPENED: Readonly<Record<EventType, string>> = {
  "invoice.paid": "An invoice was paid on the payment page",
  "invoice.expired": "An unpaid invoice passed expiresAt",
  "invoice.canceled": "An invoice was canceled",
  "subscription.created":
    "A subscription was created: its first cycle charged, or pending at the provider (status incomplete)",
  "subscription.activated":
    "A subscription's first charge succeeded: an incomplete one's at the provider, or a trial's at trialEnd",
  "subscription.renewed": "A renewal was charged",
  "subscription.past_due": "A renewal was declined for the first time this cycle",
  "subscription.canceled":
    "A subscription was canceled: through the API, when dunning ran out, or when an incomplete one's first charge failed (cancelReason)",
  "subscription.updated":
    "A subscription was changed through the API (its amount, period, texts or receipt; a cancel or pause at period end asked or undone); data.previous holds the fields that changed, as they were",
  "subscription.trial_will_end":
    "A trial ends in 3 days (at once for a shorter one): its first charge is due at trialEnd",
  "subscription.paused":
    "A pause took effect at the end of the paid period (pauseAt): nothing is charged until it is resumed",
  "subscription.resumed":
    "A paused subscription was resumed: a new cycle was charged at once and the schedule re-anchored then",
  "subscription.method_updated":
    "The payer saved a new payment method on the method-update page: method and methodMask changed; a past_due subscription is charged for its overdue cycle at once",
  "payment.canceled": "A payment attempt ended without moving money (failureCode says why)",
  "refund.succeeded": "A refund succeeded at the provider: the payment's amountRefunded includes it",
  "refund.canceled": "The provider refused a refund; the amount it held is refundable again",
  "customer.created": "A customer was created",
  "customer.updated": "A customer was changed through the API",
  "customer.erased":
    "A customer's personal data was erased (152-FZ): email, phone, name and every receipt contact of theirs",
};

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, the POST the merchant's endpoint
 * receives. Only 2xx counts as received; anything else is retried on the schedule of docs/api.md.
 */
export function webhookOperations(): Record<EventType, unknown> {
  const entries = EVENT_TYPES.map((type) => {
    const payload = type.startsWith("invoice.")
      ? "InvoiceEvent"
      : type.startsWith("payment.")
        ? "PaymentEvent"
        : type.startsWith("refund.")
          ? "RefundEvent"
          : type.startsWith("customer.")
            ? "CustomerEvent"
            : "SubscriptionEvent";
    const operation = {
      operationId: `${type.replace(/[._](.)/g, (_m, c: string) => c.toUpperCase())}Webhook`,
      tags: ["webhooks"],
      summary: WHAT_HAPPENED[type],
      security: [],
      parameters: Object.keys(WEBHOOK_PARAMETERS).map((name) => ({
        $ref: `#/components/parameters/${name}`,
      })),
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              allOf: [{ $ref: `#/components/schemas/${payload}` }, { properties: { type: { const: type } } }],
            },
          },
        },
      },
      responses: {
        "2XX": { description: "Received. Any other status, a redirect or no answer within 10 s is retried." },
      },
    };
    return [type, { post: operation }] as const;
  });
  return Object.fromEntries(entries) as Record<EventType, unknown>;
}
