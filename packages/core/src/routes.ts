import type { Result } from "neverthrow";
import type { KopekError } from "./errors.js";
import type { QueryParameters } from "./list-query.js";
import { cancelInvoice, cancelSubscription } from "./use-cases/cancel-resources.js";
import { buildInvoice, createInvoice } from "./use-cases/create-invoice.js";
import { createSubscription } from "./use-cases/create-subscription.js";
import type { Execution, Outcome } from "./use-cases/execution.js";
import {
  getInvoice,
  getSubscription,
  listInvoices,
  listSubscriptions,
  type ReadContext,
  type ReadOutcome,
} from "./use-cases/read-resources.js";
import {
  type ValidationContext,
  validateCreateInvoice,
  validateCreateSubscription,
  validateEmptyBody,
} from "./validation/validate.js";

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

/** A GET: no idempotency, answered from storage. */
export type Read = (
  context: ReadContext,
  id: string,
  query: QueryParameters,
) => Promise<Result<ReadOutcome, KopekError>>;

export type RouteMatch =
  | { readonly kind: "write"; readonly operation: Operation<unknown>; readonly id: string }
  | { readonly kind: "read"; readonly read: Read; readonly id: string };

function operation<Input>(definition: Operation<Input>): Operation<unknown> {
  return definition as Operation<unknown>;
}

const createOperations: Readonly<Record<string, Operation<unknown>>> = {
  subscriptions: operation({ validate: validateCreateSubscription, run: createSubscription }),
  invoices: operation({ validate: validateCreateInvoice, run: createInvoice, build: buildInvoice }),
};
const cancelOperations: Readonly<Record<string, Operation<unknown>>> = {
  subscriptions: operation({
    validate: validateEmptyBody,
    run: (execution, _input, id) => cancelSubscription(execution, id),
  }),
  invoices: operation({
    validate: validateEmptyBody,
    run: (execution, _input, id) => cancelInvoice(execution, id),
  }),
};
const lists: Readonly<Record<string, Read>> = {
  subscriptions: (context, _id, query) => listSubscriptions(context, query),
  invoices: (context, _id, query) => listInvoices(context, query),
};
const gets: Readonly<Record<string, Read>> = {
  subscriptions: (context, id) => getSubscription(context, id),
  invoices: (context, id) => getInvoice(context, id),
};

/** `/v1/<collection>` by method: the creates and lists, every create's route, matched without splitting. */
const COLLECTION_ROUTES = new Map<string, Readonly<Record<string, RouteMatch>>>(
  Object.keys(createOperations).map((collection) => [
    `/v1/${collection}`,
    {
      POST: { kind: "write", operation: createOperations[collection] as Operation<unknown>, id: "" },
      GET: { kind: "read", read: lists[collection] as Read, id: "" },
    },
  ]),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The routes under /v1 (API.md 5, 6). An id that is not a lower-case UUID matches nothing, so it is
 * answered 404 like any unknown resource.
 */
export function matchRoute(method: string, path: string): RouteMatch | null {
  const collectionRoute = COLLECTION_ROUTES.get(path)?.[method.toUpperCase()];
  if (collectionRoute !== undefined) return collectionRoute;
  const [empty, version, collection, id, action, ...rest] = path.split("/");
  if (empty !== "" || version !== "v1" || collection === undefined || rest.length > 0) return null;
  if (!Object.hasOwn(createOperations, collection)) return null;
  const verb = method.toUpperCase();
  // A collection's own POST and GET were answered from the table above.
  if (id === undefined) return null;
  if (!UUID.test(id)) return null;
  if (action === undefined && verb === "GET") return { kind: "read", read: gets[collection] as Read, id };
  if (action === "cancel" && verb === "POST") {
    return { kind: "write", operation: cancelOperations[collection] as Operation<unknown>, id };
  }
  return null;
}
