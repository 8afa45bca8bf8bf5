import type {
  KopekList,
  KopekListMethods,
  KopekMutationOptions,
  KopekOperation,
  KopekReadOptions,
  KopekResources,
} from "./resource-types.js";
import { type KopekRequest, sendRequest, type Transport } from "./send-request.js";

type Query = KopekRequest["query"];
/** A collection's path, or one resource's: `[collection, id, action]`, the id checked when sent. */
type Target = string | readonly [collection: string, id: string, action: string];
type Page<Item> = { readonly data: readonly Item[]; readonly nextCursor: string | null };

/** The resource methods over one transport. */
export function createResources(transport: Transport): KopekResources {
  // async, so that a bad id or a missing key rejects the promise (before anything is sent).
  const read = async <Data>(target: Target, options: KopekReadOptions | undefined, query?: Query) =>
    sendRequest<Data>(transport, { method: "GET", path: pathOf(target), query, signal: options?.signal });
  const change = async <Data>(target: Target, options: KopekMutationOptions, body?: unknown) => {
    const path = pathOf(target);
    const idempotencyKey = requireIdempotencyKey(path, options);
    return sendRequest<Data>(transport, {
      method: "POST",
      path,
      body,
      idempotencyKey,
      signal: options.signal,
    });
  };
  const remove = async <Data>(target: Target, options: KopekReadOptions | undefined) =>
    sendRequest<Data>(transport, { method: "DELETE", path: pathOf(target), signal: options?.signal });
  const one = (collection: string, id: string, action = ""): Target => [collection, id, action];
  const listing = <Id extends KopekOperation>(collection: Target): KopekListMethods<Id> => {
    const listPage = (query?: object, options?: KopekReadOptions) =>
      read(collection, options, query as Query);
    return {
      listPage,
      list: (query) => paginate(query, (page) => listPage(page) as Promise<Page<never>>),
    } as KopekListMethods<Id>;
  };

  const invoices = "/v1/invoices";
  const subscriptions = "/v1/subscriptions";
  const payments = "/v1/payments";
  const refunds = "/v1/refunds";
  const customers = "/v1/customers";
  const events = "/v1/events";
  const endpoints = "/v1/webhook-endpoints";
  return {
    invoices: {
      ...listing<"listInvoices">(invoices),
      create: (body, options) => change(invoices, options, body),
      get: (id, options) => read(one(invoices, id), options),
      cancel: (id, options) => change(one(invoices, id, "/cancel"), options),
    },
    subscriptions: {
      ...listing<"listSubscriptions">(subscriptions),
      create: (body, options) => change(subscriptions, options, body),
      get: (id, options) => read(one(subscriptions, id), options),
      update: (id, body, options) => change(one(subscriptions, id), options, body),
      cancel: (id, options) => change(one(subscriptions, id, "/cancel"), options, options?.body),
      pause: (id, options) => change(one(subscriptions, id, "/pause"), options),
      resume: (id, options) => change(one(subscriptions, id, "/resume"), options),
      methodUpdate: (id, options) => change(one(subscriptions, id, "/method-update"), options),
    },
    payments: {
      ...listing<"listPayments">(payments),
      get: (id, options) => read(one(payments, id), options),
    },
    refunds: {
      ...listing<"listRefunds">(refunds),
      create: (paymentId, body, options) => change(one(payments, paymentId, "/refunds"), options, body),
      get: (id, options) => read(one(refunds, id), options),
    },
    customers: {
      ...listing<"listCustomers">(customers),
      create: (body, options) => change(customers, options, body),
      get: (id, options) => read(one(customers, id), options),
      update: (id, body, options) => change(one(customers, id), options, body),
      erase: (id, options) => change(one(customers, id, "/erase"), options),
    },
    events: {
      ...listing<"listEvents">(events),
      get: (id, options) => read(one(events, id), options),
      redeliver: (id, options) => change(one(events, id, "/redeliver"), options, options?.body),
    },
    webhookEndpoints: {
      ...listing<"listWebhookEndpoints">(endpoints),
      create: (body, options) => change(endpoints, options, body),
      get: (id, options) => read(one(endpoints, id), options),
      update: (id, body, options) => change(one(endpoints, id), options, body),
      rotateSecret: (id, options) => change(one(endpoints, id, "/rotate-secret"), options),
      delete: (id, options) => remove(one(endpoints, id), options),
      deliveries: (id) => listing<"listWebhookEndpointDeliveries">(one(endpoints, id, "/deliveries")),
    },
  };
}

/** Each page's items in turn; the next page is asked for only when the loop gets there. */
async function* paginate<Item>(
  query: object | undefined,
  listPage: (query: object) => Promise<Page<Item>>,
): KopekList<Item> & AsyncGenerator<Item, void> {
  let cursor: string | null | undefined = (query as { cursor?: string } | undefined)?.cursor;
  do {
    const page = await listPage(cursor === undefined ? { ...query } : { ...query, cursor });
    yield* page.data;
    cursor = page.nextCursor;
  } while (cursor !== null);
}

/** The run-time twin of the required `idempotencyKey` (for callers without types, or with `as`). */
function requireIdempotencyKey(path: string, options: KopekMutationOptions | undefined): string {
  const key: unknown = options?.idempotencyKey;
  if (typeof key === "string" && key !== "") return key;
  throw new TypeError(
    `@kopek/client: POST ${path} needs { idempotencyKey } (newIdempotencyKey(), made once per operation and kept for retries)`,
  );
}

function pathOf(target: Target): string {
  if (typeof target === "string") return target;
  const [collection, id, action] = target;
  if (typeof id !== "string" || id === "")
    throw new TypeError(`@kopek/client: ${collection}: an id must be a non-empty string`);
  return `${collection}/${encodeURIComponent(id)}${action}`;
}
