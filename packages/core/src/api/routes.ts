import type { Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { cancelInvoice } from "../use-cases/cancel-invoice.js";
import {
  cancelSubscription,
  pauseSubscription,
  updateSubscription,
} from "../use-cases/change-subscription.js";
import { buildInvoice, createInvoice } from "../use-cases/create-invoice.js";
import { createRefund } from "../use-cases/create-refund.js";
import { createSubscription } from "../use-cases/create-subscription.js";
import {
  createCustomer,
  eraseCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from "../use-cases/customers.js";
import type { Execution, Outcome } from "../use-cases/execution.js";
import { createMethodUpdate } from "../use-cases/method-update.js";
import {
  getInvoice,
  getPayment,
  getRefund,
  getSubscription,
  listInvoices,
  listPayments,
  listRefunds,
  listSubscriptions,
  type ReadContext,
  type ReadOutcome,
} from "../use-cases/read-resources.js";
import { resumeSubscription } from "../use-cases/resume-subscription.js";
import {
  createEndpointOperation,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  redeliverOperation,
  rotateSecretOperation,
  updateEndpointOperation,
} from "../use-cases/webhook-operations.js";
import {
  type ValidationContext,
  validateCancelSubscription,
  validateCreateCustomer,
  validateCreateInvoice,
  validateCreateRefund,
  validateCreateSubscription,
  validateEmptyBody,
  validateUpdateCustomer,
  validateUpdateSubscription,
} from "../validation/validate.js";
import {
  validateCreateWebhookEndpoint,
  validateRedeliverEvent,
  validateUpdateWebhookEndpoint,
} from "../validation/webhook-schemas.js";
import { getEvent, listEndpointDeliveries, listEvents } from "../webhooks/event-log.js";
import type { QueryParameters } from "./list-query.js";
import type { BodyRule } from "./request-body.js";

/** A POST, run once per Idempotency-Key (`executeOnce`): validated, then built or run. */
export interface Operation<Input> {
  readonly validate: (body: unknown, context: ValidationContext) => Result<Input, KopekError>;
  /** Runs the operation while its key is claimed: it may ask the provider. */
  readonly run: (execution: Execution, input: Input, id: string) => Promise<Result<Outcome, KopekError>>;
  /**
   * The same outcome as `run`, made from the request alone, when the operation needs nothing outside
   * storage (for this execution's provider); null when it does, and `run` runs instead. A built
   * outcome is stored with its key in one step (`Storage.createOnce`).
   */
  readonly build?: (execution: Execution, input: Input) => Result<Outcome, KopekError> | null;
}

/** A GET (or a DELETE): no idempotency, answered from storage. */
export type Read = (
  context: ReadContext,
  id: string,
  query: QueryParameters,
) => Promise<Result<ReadOutcome, KopekError>>;

/** The resources of the API (API.md 5). */
export const COLLECTIONS = [
  "subscriptions",
  "invoices",
  "payments",
  "refunds",
  "customers",
  "events",
  "webhook-endpoints",
] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** What a route does to its collection; each collection has the ones `OPERATIONS` gives it. */
export type Action =
  | "create"
  | "list"
  | "get"
  | "update"
  | "cancel"
  | "pause"
  | "resume"
  | "method-update"
  | "refund"
  | "erase"
  | "delete"
  | "rotate-secret"
  | "deliveries"
  | "redeliver";

/** One route of the API: the one table the server's routes and the OpenAPI paths derive from. */
export interface Route {
  readonly method: "GET" | "POST" | "DELETE";
  /** The path with `{id}` for a resource id, as OpenAPI writes it. */
  readonly path: string;
  readonly collection: Collection;
  readonly action: Action;
  /** A write's body: JSON (a create), or optional (a cancel takes none, or `{}`); null for a read or a delete. */
  readonly body: BodyRule | null;
}

export type RouteMatch =
  | {
      readonly kind: "write";
      readonly operation: Operation<unknown>;
      readonly id: string;
      readonly body: BodyRule;
    }
  | { readonly kind: "read"; readonly read: Read; readonly id: string };

function operation<Input>(definition: Operation<Input>): Operation<unknown> {
  return definition as Operation<unknown>;
}

const OPERATIONS: Readonly<Record<Collection, Readonly<Partial<Record<Action, Operation<unknown> | Read>>>>> =
  {
    subscriptions: {
      create: operation({ validate: validateCreateSubscription, run: createSubscription }),
      list: (context, _id, query) => listSubscriptions(context, query),
      get: (context, id) => getSubscription(context, id),
      update: operation({ validate: validateUpdateSubscription, run: updateSubscription }),
      cancel: operation({ validate: validateCancelSubscription, run: cancelSubscription }),
      pause: operation({ validate: validateEmptyBody, run: pauseSubscription }),
      resume: operation({ validate: validateEmptyBody, run: resumeSubscription }),
      "method-update": operation({ validate: validateEmptyBody, run: createMethodUpdate }),
    },
    invoices: {
      create: operation({ validate: validateCreateInvoice, run: createInvoice, build: buildInvoice }),
      list: (context, _id, query) => listInvoices(context, query),
      get: (context, id) => getInvoice(context, id),
      cancel: operation({
        validate: validateEmptyBody,
        run: (execution, _input, id) => cancelInvoice(execution, id),
      }),
    },
    // Payments are made by paying, never through a create (API.md 10.2).
    payments: {
      list: (context, _id, query) => listPayments(context, query),
      get: (context, id) => getPayment(context, id),
      refund: operation({ validate: validateCreateRefund, run: createRefund }),
    },
    // Refunds are made through their payment (`POST /v1/payments/{id}/refunds`, API.md 10.6).
    refunds: {
      list: (context, _id, query) => listRefunds(context, query),
      get: (context, id) => getRefund(context, id),
    },
    // API.md 11.1.
    customers: {
      create: operation({ validate: validateCreateCustomer, run: createCustomer }),
      list: (context, _id, query) => listCustomers(context, query),
      get: (context, id) => getCustomer(context, id),
      update: operation({ validate: validateUpdateCustomer, run: updateCustomer }),
      erase: operation({
        validate: validateEmptyBody,
        run: (execution, _input, id) => eraseCustomer(execution, id),
      }),
    },
    // API.md 12.
    events: {
      list: (context, _id, query) => listEvents(context, query),
      get: (context, id) => getEvent(context, id),
      redeliver: operation({ validate: validateRedeliverEvent, run: redeliverOperation }),
    },
    "webhook-endpoints": {
      create: operation({ validate: validateCreateWebhookEndpoint, run: createEndpointOperation }),
      list: (context, _id, query) => listEndpoints(context, query),
      get: (context, id) => getEndpoint(context, id),
      update: operation({ validate: validateUpdateWebhookEndpoint, run: updateEndpointOperation }),
      delete: (context, id) => deleteEndpoint(context, id),
      "rotate-secret": operation({ validate: validateEmptyBody, run: rotateSecretOperation }),
      deliveries: (context, id, query) => listEndpointDeliveries(context, id, query),
    },
  };

/** The method, path after the collection, and body of each action. */
const ACTIONS: Readonly<Record<Action, Pick<Route, "method" | "body"> & { readonly suffix: string }>> = {
  create: { method: "POST", suffix: "", body: "json" },
  list: { method: "GET", suffix: "", body: null },
  get: { method: "GET", suffix: "/{id}", body: null },
  update: { method: "POST", suffix: "/{id}", body: "json" },
  cancel: { method: "POST", suffix: "/{id}/cancel", body: "optional" },
  // API.md 11.4: no body, or `{}`.
  pause: { method: "POST", suffix: "/{id}/pause", body: "optional" },
  resume: { method: "POST", suffix: "/{id}/resume", body: "optional" },
  // API.md 11.5: no body, or `{}`.
  "method-update": { method: "POST", suffix: "/{id}/method-update", body: "optional" },
  // Every field of a refund is optional: no body asks for all that remains.
  refund: { method: "POST", suffix: "/{id}/refunds", body: "optional" },
  // Personal data erased (API.md 11.1): no body, or `{}`.
  erase: { method: "POST", suffix: "/{id}/erase", body: "optional" },
  // API.md 12: no Idempotency-Key (not a POST); a second delete is 404.
  delete: { method: "DELETE", suffix: "/{id}", body: null },
  "rotate-secret": { method: "POST", suffix: "/{id}/rotate-secret", body: "optional" },
  deliveries: { method: "GET", suffix: "/{id}/deliveries", body: null },
  // No body, `{}`, or `{ endpointId }`.
  redeliver: { method: "POST", suffix: "/{id}/redeliver", body: "optional" },
};

/** Every route under /v1 (API.md 5, 6, 10.2, 10.6). */
export const ROUTES: readonly Route[] = COLLECTIONS.flatMap((collection) =>
  (Object.keys(ACTIONS) as Action[])
    .filter((action) => OPERATIONS[collection][action] !== undefined)
    .map((action): Route => {
      const { method, suffix, body } = ACTIONS[action];
      return { method, path: `/v1/${collection}${suffix}`, collection, action, body };
    }),
);

/** `METHOD path` (with `{id}`) → what answers it, built once from `ROUTES`. */
const MATCHES = new Map<string, (id: string) => RouteMatch>(
  ROUTES.map((route): [string, (id: string) => RouteMatch] => {
    const handler = OPERATIONS[route.collection][route.action];
    const body = route.body;
    const match =
      body === null
        ? (id: string): RouteMatch => ({ kind: "read", read: handler as Read, id })
        : (id: string): RouteMatch => ({ kind: "write", operation: handler as Operation<unknown>, id, body });
    return [`${route.method} ${route.path}`, match];
  }),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The route of a request under /v1, or null. An id that is not a lower-case UUID matches nothing, so
 * it is answered 404 like any unknown resource.
 */
export function matchRoute(method: string, path: string): RouteMatch | null {
  const verb = method.toUpperCase();
  const [empty, version, collection, id, action, ...rest] = path.split("/");
  if (empty !== "" || version !== "v1" || rest.length > 0) return null;
  if (id === undefined) return MATCHES.get(`${verb} /v1/${collection}`)?.("") ?? null;
  if (!UUID.test(id)) return null;
  const template = `/v1/${collection}/{id}${action === undefined ? "" : `/${action}`}`;
  return MATCHES.get(`${verb} ${template}`)?.(id) ?? null;
}
