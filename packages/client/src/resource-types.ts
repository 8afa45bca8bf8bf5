import type { operations } from "./schema.generated.js";

/** An operation of the Kopek API, by its OpenAPI operationId (`createInvoice`, `listPayments`, …). */
export type KopekOperation = keyof operations;

type Json<Content> = Content extends { content: { "application/json": infer Body } } ? Body : never;

/** What an operation answers on success (the 200 or 201 body). */
export type KopekResult<Id extends KopekOperation> = Json<
  operations[Id]["responses"][Extract<keyof operations[Id]["responses"], 200 | 201>]
>;

/** The JSON body an operation takes. */
export type KopekRequestBody<Id extends KopekOperation> = Json<NonNullable<operations[Id]["requestBody"]>>;

/** The query parameters a list operation takes (`limit`, `cursor`, filters). */
export type KopekQuery<Id extends KopekOperation> = NonNullable<operations[Id]["parameters"]["query"]>;

/** One element of what a list operation answers. */
export type KopekListItem<Id extends KopekOperation> =
  KopekResult<Id> extends { data: readonly (infer Item)[] } ? Item : never;

/** Options of a method that only reads. */
export interface KopekReadOptions {
  /** Aborts the request, and any wait between its retries. */
  readonly signal?: AbortSignal;
}

/**
 * Options of a method that changes something: the Idempotency-Key is required. Make it once per
 * operation (`newIdempotencyKey()`, or derived from your own id) and keep it: calling the method
 * again with it never does the operation twice.
 */
export interface KopekMutationOptions extends KopekReadOptions {
  readonly idempotencyKey: string;
}

/** A list: iterate it with `for await` to walk every page, newest first. */
export type KopekList<Item> = AsyncIterable<Item>;

/** `listPage` / `list` of one kind of resource. */
export interface KopekListMethods<Id extends KopekOperation> {
  /** Every item, page after page (following `nextCursor`), fetched as the loop goes. */
  list(query?: KopekQuery<Id>): KopekList<KopekListItem<Id>>;
  /** One page: `{ data, nextCursor }`; pass `nextCursor` as `cursor` for the next one. */
  listPage(query?: KopekQuery<Id>, options?: KopekReadOptions): Promise<KopekResult<Id>>;
}

export interface KopekInvoices extends KopekListMethods<"listInvoices"> {
  create(
    body: KopekRequestBody<"createInvoice">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"createInvoice">>;
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getInvoice">>;
  cancel(id: string, options: KopekMutationOptions): Promise<KopekResult<"cancelInvoice">>;
}

export interface KopekSubscriptions extends KopekListMethods<"listSubscriptions"> {
  create(
    body: KopekRequestBody<"createSubscription">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"createSubscription">>;
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getSubscription">>;
  update(
    id: string,
    body: KopekRequestBody<"updateSubscription">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"updateSubscription">>;
  /** Ends it now; `body: { at: "period_end" }` ends it when its paid period does. */
  cancel(
    id: string,
    options: KopekMutationOptions & { readonly body?: KopekRequestBody<"cancelSubscription"> },
  ): Promise<KopekResult<"cancelSubscription">>;
  pause(id: string, options: KopekMutationOptions): Promise<KopekResult<"pauseSubscription">>;
  resume(id: string, options: KopekMutationOptions): Promise<KopekResult<"resumeSubscription">>;
  /** A link where the payer saves a new payment method for the subscription. */
  methodUpdate(
    id: string,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"createSubscriptionMethodUpdate">>;
}

export interface KopekPayments extends KopekListMethods<"listPayments"> {
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getPayment">>;
}

export interface KopekRefunds extends KopekListMethods<"listRefunds"> {
  /** Refunds a succeeded payment: `{}` refunds all that remains, `{ amount }` a part. */
  create(
    paymentId: string,
    body: KopekRequestBody<"createRefund">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"createRefund">>;
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getRefund">>;
}

export interface KopekCustomers extends KopekListMethods<"listCustomers"> {
  create(
    body: KopekRequestBody<"createCustomer">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"createCustomer">>;
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getCustomer">>;
  update(
    id: string,
    body: KopekRequestBody<"updateCustomer">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"updateCustomer">>;
  /** Erases the customer's personal data (152-FZ). */
  erase(id: string, options: KopekMutationOptions): Promise<KopekResult<"eraseCustomer">>;
}

/** The events webhooks carry (API.md 12), kept 30 days. */
export interface KopekEvents extends KopekListMethods<"listEvents"> {
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getEvent">>;
  /** Queues the event again, due now: to `body.endpointId`, or to every enabled endpoint taking its type. */
  redeliver(
    id: string,
    options: KopekMutationOptions & { readonly body?: KopekRequestBody<"redeliverEvent"> },
  ): Promise<KopekResult<"redeliverEvent">>;
}

export interface KopekWebhookEndpoints extends KopekListMethods<"listWebhookEndpoints"> {
  /** The answer's `secret` is shown this once (a replay answers null). */
  create(
    body: KopekRequestBody<"createWebhookEndpoint">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"createWebhookEndpoint">>;
  get(id: string, options?: KopekReadOptions): Promise<KopekResult<"getWebhookEndpoint">>;
  /** `{ enabled: false }` stops its deliveries (they wait); `true` starts them again. */
  update(
    id: string,
    body: KopekRequestBody<"updateWebhookEndpoint">,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"updateWebhookEndpoint">>;
  /** A new secret; the old one signs beside it for 24 h. */
  rotateSecret(
    id: string,
    options: KopekMutationOptions,
  ): Promise<KopekResult<"rotateWebhookEndpointSecret">>;
  /** Deletes it (a retry after a lost answer finds it gone: 404). */
  delete(id: string, options?: KopekReadOptions): Promise<KopekResult<"deleteWebhookEndpoint">>;
  /** Each attempt to deliver to it, newest first. */
  deliveries(id: string): KopekListMethods<"listWebhookEndpointDeliveries">;
}

/** The resource methods beside the raw `GET` / `POST`. */
export interface KopekResources {
  readonly invoices: KopekInvoices;
  readonly subscriptions: KopekSubscriptions;
  readonly payments: KopekPayments;
  readonly refunds: KopekRefunds;
  readonly customers: KopekCustomers;
  readonly events: KopekEvents;
  readonly webhookEndpoints: KopekWebhookEndpoints;
}
