import {
  DELIVERY_OUTCOMES,
  EVENT_TYPES,
  INVOICE_STATUSES,
  PAYMENT_STATUSES,
  REFUND_STATUSES,
} from "@kopek/core";

/** `components.parameters`: the headers every POST takes, the resource id and the list parameters. */
export const PARAMETERS = {
  "Idempotency-Key": {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    description:
      "Makes the POST safe to retry: 1–255 printable ASCII characters, remembered for 24 hours per project. " +
      "The same key with the same body replays the first answer; with another body it is refused. HTTP " +
      "drops spaces around a header's value, so a key cannot start or end with one (a key of only spaces " +
      "arrives empty: 400 idempotency_key_invalid).",
    schema: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      pattern: "^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$",
    },
  },
  "X-Request-Id": {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description:
      "Your id for this request (1–128 printable characters, no spaces); echoed back. Any other value is " +
      "not refused: the answer carries a new id instead.",
    schema: { type: "string", minLength: 1, maxLength: 128, pattern: "^[\\x21-\\x7E]+$" },
  },
  ResourceId: {
    name: "id",
    in: "path",
    required: true,
    description:
      "The resource's id (a lower-case UUID). Unknown, malformed and other projects' ids are all 404 not_found.",
    schema: { type: "string", format: "uuid" },
  },
  Limit: {
    name: "limit",
    in: "query",
    required: false,
    description: "How many to return. Out of range: 422 validation_failed with pointer `#/limit`.",
    schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
  },
  Cursor: {
    name: "cursor",
    in: "query",
    required: false,
    description:
      "The `nextCursor` of the previous page, as returned: opaque. Pages are stable while new resources " +
      "arrive (nothing repeated or skipped). Anything else: 422 with pointer `#/cursor`.",
    schema: { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$" },
  },
  InvoiceStatus: {
    name: "status",
    in: "query",
    required: false,
    description:
      "Only invoices in this status, as read now (an unpaid invoice past expiresAt is expired). " +
      "Another value: 422 with pointer `#/status`.",
    schema: { type: "string", enum: [...INVOICE_STATUSES] },
  },
  PaymentInvoiceId: {
    name: "invoiceId",
    in: "query",
    required: false,
    description: "Only the payments of this invoice. Not a UUID: 422 with pointer `#/invoiceId`.",
    schema: { type: "string", format: "uuid" },
  },
  PaymentSubscriptionId: {
    name: "subscriptionId",
    in: "query",
    required: false,
    description: "Only the charges of this subscription. Not a UUID: 422 with pointer `#/subscriptionId`.",
    schema: { type: "string", format: "uuid" },
  },
  PaymentStatus: {
    name: "status",
    in: "query",
    required: false,
    description: "Only payments in this status. Another value: 422 with pointer `#/status`.",
    schema: { type: "string", enum: [...PAYMENT_STATUSES] },
  },
  RefundPaymentId: {
    name: "paymentId",
    in: "query",
    required: false,
    description: "Only the refunds of this payment. Not a UUID: 422 with pointer `#/paymentId`.",
    schema: { type: "string", format: "uuid" },
  },
  RefundStatus: {
    name: "status",
    in: "query",
    required: false,
    description: "Only refunds in this status. Another value: 422 with pointer `#/status`.",
    schema: { type: "string", enum: [...REFUND_STATUSES] },
  },
  CustomerId: {
    name: "customerId",
    in: "query",
    required: false,
    description: "Only those of this customer (API.md 11.1). Not a UUID: 422 with pointer `#/customerId`.",
    schema: { type: "string", format: "uuid" },
  },
  CustomerExternalId: {
    name: "externalId",
    in: "query",
    required: false,
    description: "Only the customer with this externalId (exactly). Empty or over 255 characters: 422.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
  CustomerEmail: {
    name: "email",
    in: "query",
    required: false,
    description:
      "Only customers with this email (exactly, case included). Empty or over 255 characters: 422.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
  EventType: {
    name: "type",
    in: "query",
    required: false,
    description: "Only events of this type. Another value: 422 with pointer `#/type`.",
    schema: { type: "string", enum: [...EVENT_TYPES] },
  },
  EventSince: {
    name: "since",
    in: "query",
    required: false,
    description:
      "Only events recorded at or after this ISO 8601 moment. Malformed: 422 with pointer `#/since`.",
    schema: { type: "string", format: "date-time" },
  },
  DeliveryOutcome: {
    name: "status",
    in: "query",
    required: false,
    description: "Only attempts with this outcome. Another value: 422 with pointer `#/status`.",
    schema: { type: "string", enum: [...DELIVERY_OUTCOMES] },
  },
} as const;

/** `components.headers`. */
export const HEADERS = {
  "X-Request-Id": {
    description: "The request's id: the one sent when it was sane, else a new one",
    required: true,
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
  Location: { description: "Path of the created resource", required: true, schema: { type: "string" } },
} as const;
