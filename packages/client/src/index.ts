// @kopek/client — a typed client for the Kopek HTTP API, generated from the server's OpenAPI document.

export { KopekApiError, type KopekProblem } from "./kopek-api-error.js";
export {
  createKopekClient,
  type KopekClient,
  type KopekClientOptions,
  type KopekPaths,
  newIdempotencyKey,
} from "./kopek-client.js";
export type {
  KopekCustomers,
  KopekEvents,
  KopekInvoices,
  KopekList,
  KopekListItem,
  KopekListMethods,
  KopekMutationOptions,
  KopekOperation,
  KopekPayments,
  KopekQuery,
  KopekReadOptions,
  KopekRefunds,
  KopekRequestBody,
  KopekResources,
  KopekResult,
  KopekSubscriptions,
  KopekWebhookEndpoints,
} from "./resource-types.js";
export type { components, operations, paths } from "./schema.generated.js";

import type { components } from "./schema.generated.js";

type Schemas = components["schemas"];
export type CreateSubscriptionRequest = Schemas["CreateSubscriptionRequest"];
export type CreateInvoiceRequest = Schemas["CreateInvoiceRequest"];
export type Subscription = Schemas["Subscription"];
export type Invoice = Schemas["Invoice"];
export type SubscriptionList = Schemas["SubscriptionList"];
export type InvoiceList = Schemas["InvoiceList"];
export type Payment = Schemas["Payment"];
export type PaymentList = Schemas["PaymentList"];
export type Refund = Schemas["Refund"];
export type RefundList = Schemas["RefundList"];
export type Customer = Schemas["CustomerResource"];
export type CustomerList = Schemas["CustomerList"];
export type MethodUpdateLink = Schemas["MethodUpdateLink"];
export type Event = Schemas["Event"];
export type EventList = Schemas["EventList"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointWithSecret = Schemas["WebhookEndpointWithSecret"];
export type DeliveryAttempt = Schemas["DeliveryAttempt"];
export type Problem = Schemas["Problem"];
export type ProblemCode = Problem["code"];
