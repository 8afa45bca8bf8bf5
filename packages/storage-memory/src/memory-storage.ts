import { type InspectableStorage, refusedResource, type StorageError } from "@kopek/core";
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import { CustomerStore } from "./customer-store.js";
import { eventDeliveries, findEvent, listDeliveryAttempts, listEvents } from "./event-log.js";
import { IdempotencyStore } from "./idempotency-store.js";
import { OutboxStore } from "./outbox-store.js";
import { deleteProject } from "./project-deletion.js";
import { ProjectStore } from "./project-store.js";
import { RefundStore } from "./refund-store.js";
import { ResourceStore } from "./resource-store.js";

export interface MemoryStorageOptions {
  /**
   * How many expired idempotency records each claim may purge on its way (default 4), which keeps
   * memory bounded under sustained load without a purge worker. 0 leaves purging to
   * `purgeExpiredIdempotencyKeys`.
   */
  readonly maxPurgeBatch?: number;
  /**
   * How many subscriptions, invoices, payments and refunds are kept (default 100,000 each); past that the
   * oldest are dropped. Memory storage is for development, tests and embedding, not a database:
   * this keeps a long-running process bounded. `Infinity` keeps everything.
   */
  readonly maxResources?: number;
  /**
   * How many outbox events and how many webhook deliveries are kept (default 100,000 each); past that
   * the ones that finished longest ago are dropped. A pending delivery and its event are never dropped.
   */
  readonly maxOutboxEntries?: number;
}

const DEFAULT_MAX_RESOURCES = 100_000;
const DEFAULT_MAX_OUTBOX_ENTRIES = 100_000;

const LEASE_LOST: StorageError = {
  code: "lease_lost",
  message: "memory storage: the lease no longer holds the idempotency key",
};

const CONFLICT: StorageError = {
  code: "conflict",
  message: "memory storage: the resource changed since it was read (version check)",
};

const DUPLICATE: StorageError = {
  code: "duplicate",
  message: "memory storage: the invoice already backs a subscription",
};

// Every operation runs synchronously inside `run`, so it is atomic; a throw there is a bug, reported as an error.
function attempt<T>(operation: string, run: () => T): ResultAsync<T, StorageError> {
  try {
    return okAsync(run());
  } catch (cause) {
    return errAsync(failure(operation, cause));
  }
}

/**
 * A write storage may refuse (a lost lease, a version conflict): `run` answers the refusal, or what it
 * wrote. Settled once, with no ResultAsync chain after it (writes are on every request).
 */
function attemptWrite<T = void>(
  operation: string,
  run: () => Result<T, StorageError>,
): ResultAsync<T, StorageError> {
  let written: Result<T, StorageError>;
  try {
    written = run();
  } catch (cause) {
    return errAsync(failure(operation, cause));
  }
  return written.isOk() ? okAsync(written.value) : errAsync(written.error);
}

const WROTE = ok(undefined);

const failure = (operation: string, cause: unknown): StorageError => ({
  code: "storage_failed",
  message: `memory storage: ${operation} failed`,
  cause,
});

// Domain interfaces carry no index signature; a spread turns a record into the plain row `inspect` promises.
const asRow = (record: object): Readonly<Record<string, unknown>> => ({ ...record });

/**
 * Storage held in this process's memory: for development, tests and single-process embedding. Nothing
 * survives a restart, and method tokens are kept as given (there is no "at rest" to encrypt).
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): InspectableStorage {
  const projects = new ProjectStore();
  const resources = new ResourceStore(options.maxResources ?? DEFAULT_MAX_RESOURCES);
  const refunds = new RefundStore(resources, options.maxResources ?? DEFAULT_MAX_RESOURCES);
  const customers = new CustomerStore(options.maxResources ?? DEFAULT_MAX_RESOURCES);
  const idempotency = new IdempotencyStore(resources, projects, options.maxPurgeBatch ?? 4);
  const maxOutbox = options.maxOutboxEntries ?? DEFAULT_MAX_OUTBOX_ENTRIES;
  const outbox = new OutboxStore({ maxEvents: maxOutbox, maxDeliveries: maxOutbox });
  const LEASE_LOST_DELIVERY: StorageError = {
    code: "lease_lost",
    message: "memory storage: the lease no longer holds the webhook delivery",
  };
  return {
    saveProject: (project) => attempt("saveProject", () => projects.saveProject(project)),
    findProject: (projectId) => attempt("findProject", () => projects.findProject(projectId)),
    listProjects: () => attempt("listProjects", () => projects.listProjects()),
    projectExists: (projectId) => attempt("projectExists", () => projects.projectExists(projectId)),
    addApiKey: (key) => attempt("addApiKey", () => projects.addApiKey(key)),
    revokeApiKey: (sha256, revokedAt) =>
      attempt("revokeApiKey", () => projects.revokeApiKey(sha256, revokedAt)),
    listApiKeys: (projectId) => attempt("listApiKeys", () => projects.listApiKeys(projectId)),
    findApiKeys: (match) => attempt("findApiKeys", () => projects.findApiKeys(match)),
    findProjectByKeyHash: (sha256) =>
      attempt("findProjectByKeyHash", () => projects.findProjectByKeyHash(sha256)),
    deleteProject: (projectId) =>
      attempt("deleteProject", () =>
        deleteProject({ projects, resources, refunds, customers, idempotency, outbox }, projectId),
      ),
    markProjectDeleted: (projectId, at) =>
      attempt("markProjectDeleted", () => projects.markDeleted(projectId, at)),
    claimIdempotencyKey: (claim) => attempt("claimIdempotencyKey", () => idempotency.claim(claim)),
    completeIdempotencyKey: (completion) =>
      attemptWrite("completeIdempotencyKey", () => {
        const refused = refusedResource("memory storage", completion.resource);
        if (refused !== null) return err(refused);
        const outcome = idempotency.complete(completion);
        if (outcome === "duplicate") return err(DUPLICATE);
        if (outcome !== "completed") return err(outcome === "lease_lost" ? LEASE_LOST : CONFLICT);
        // Same synchronous step as the resource write: the events exist exactly when it does.
        if (completion.resource !== null) outbox.append(completion.events);
        return WROTE;
      }),
    createOnce: (record, write) =>
      attemptWrite("createOnce", () => {
        const refused = refusedResource("memory storage", write.resource);
        if (refused !== null) return err(refused);
        const outcome = idempotency.createOnce(record, write);
        if (outcome === "conflict") return err(CONFLICT);
        // Same synchronous step as the resource write: the events exist exactly when it does.
        if (outcome.kind === "created" && write.resource !== null) outbox.append(write.events);
        return ok(outcome);
      }),
    findIdempotencyRecord: (lookup) => attempt("findIdempotencyRecord", () => idempotency.find(lookup)),
    lookupsAreLocal: true,
    releaseIdempotencyKey: (release) => attempt("releaseIdempotencyKey", () => idempotency.release(release)),
    purgeExpiredIdempotencyKeys: (now, limit) =>
      attempt("purgeExpiredIdempotencyKeys", () => idempotency.purge(now, limit)),
    findSubscription: (projectId, id) =>
      attempt("findSubscription", () => resources.findSubscription(projectId, id)),
    findInvoice: (projectId, id) => attempt("findInvoice", () => resources.findInvoice(projectId, id)),
    listSubscriptions: (projectId, page) =>
      attempt("listSubscriptions", () => resources.listSubscriptions(projectId, page)),
    listInvoices: (projectId, page) => attempt("listInvoices", () => resources.listInvoices(projectId, page)),
    claimDueSubscriptions: (claim) =>
      attempt("claimDueSubscriptions", () => resources.claimDueSubscriptions(claim)),
    saveSubscription: (subscription, events, payments) =>
      attemptWrite("saveSubscription", () => {
        const refused = refusedResource("memory storage", { kind: "subscription", subscription });
        if (refused !== null) return err(refused);
        if (!resources.acceptsPayments(payments) || !resources.saveSubscription(subscription))
          return err(CONFLICT);
        resources.writePayments(payments);
        outbox.append(events);
        return WROTE;
      }),
    saveInvoice: (invoice, events, payments) =>
      attemptWrite("saveInvoice", () => {
        if (invoice.version <= 1 || !resources.acceptsPayments(payments)) return err(CONFLICT);
        if (!resources.store({ kind: "invoice", invoice })) return err(CONFLICT);
        resources.writePayments(payments);
        outbox.append(events);
        return WROTE;
      }),
    findPayment: (projectId, id) => attempt("findPayment", () => resources.findPayment(projectId, id)),
    findPaymentByProviderId: (projectId, providerPaymentId) =>
      attempt("findPaymentByProviderId", () =>
        resources.findPaymentByProviderId(projectId, providerPaymentId),
      ),
    listPayments: (projectId, page) => attempt("listPayments", () => resources.listPayments(projectId, page)),
    claimPaymentChecks: (claim) => attempt("claimPaymentChecks", () => resources.claimPaymentChecks(claim)),
    countResources: () =>
      attempt("countResources", () => {
        const { pending, oldestEventAt } = outbox.countPending();
        return {
          ...resources.countResources(),
          pendingDeliveries: pending,
          oldestPendingEventAt: oldestEventAt,
        };
      }),
    countPendingPayments: (cutoffs) =>
      attempt("countPendingPayments", () => resources.countPendingPayments(cutoffs)),
    savePayment: (payment, events) =>
      attemptWrite("savePayment", () => {
        if (!resources.acceptsPayments([payment])) return err(CONFLICT);
        resources.writePayments([payment]);
        outbox.append(events);
        return WROTE;
      }),
    findRefund: (projectId, id) => attempt("findRefund", () => refunds.findRefund(projectId, id)),
    listRefunds: (projectId, page) => attempt("listRefunds", () => refunds.listRefunds(projectId, page)),
    reserveRefund: (refund, payment, events) =>
      attemptWrite("reserveRefund", () => {
        if (payment !== null && !resources.acceptsPayments([payment])) return err(CONFLICT);
        const reservation = refunds.reserve(refund, payment);
        if (reservation.kind !== "reserved") return ok(reservation);
        // Same synchronous step: the payment, the refund that holds part of it and the events.
        if (payment !== null) resources.writePayments([payment]);
        outbox.append(events);
        return ok(reservation);
      }),
    saveRefund: (refund, events) =>
      attemptWrite("saveRefund", () => {
        if (!refunds.save(refund)) return err(CONFLICT);
        outbox.append(events);
        return WROTE;
      }),
    claimRefundChecks: (claim) => attempt("claimRefundChecks", () => refunds.claimChecks(claim)),
    findInvoiceById: (id) => attempt("findInvoiceById", () => resources.findInvoiceById(id)),
    listLapsedInvoices: (now, limit) =>
      attempt("listLapsedInvoices", () => resources.lapsedInvoices(now, limit)),
    listPendingMethodSaves: (limit) =>
      attempt("listPendingMethodSaves", () => resources.pendingMethodSaves(limit)),
    saveWebhookEndpoint: (endpoint) => attempt("saveWebhookEndpoint", () => outbox.saveEndpoint(endpoint)),
    findWebhookEndpoint: (projectId, id) =>
      attempt("findWebhookEndpoint", () => outbox.findEndpoint(projectId, id)),
    listWebhookEndpoints: (projectId) =>
      attempt("listWebhookEndpoints", () => outbox.listEndpoints(projectId)),
    removeWebhookEndpoint: (projectId, id) =>
      attempt("removeWebhookEndpoint", () => outbox.removeEndpoint(projectId, id)),
    disableWebhookEndpoint: (projectId, id, at, reason) =>
      attempt("disableWebhookEndpoint", () => outbox.disableEndpoint(projectId, id, at, reason)),
    claimDueDeliveries: (claim) => attempt("claimDueDeliveries", () => outbox.claim(claim)),
    recordDeliveryAttempt: (delivery) =>
      attemptWrite("recordDeliveryAttempt", () =>
        outbox.record(delivery) ? WROTE : err(LEASE_LOST_DELIVERY),
      ),
    listEventDeliveries: (projectId) =>
      attempt("listEventDeliveries", () => eventDeliveries(outbox.storedEvents(), projectId)),
    findEvent: (projectId, id) => attempt("findEvent", () => findEvent(outbox.storedEvents(), projectId, id)),
    listEvents: (projectId, page) =>
      attempt("listEvents", () => listEvents(outbox.storedEvents(), projectId, page)),
    listDeliveryAttempts: (projectId, endpointId, page) =>
      attempt("listDeliveryAttempts", () =>
        listDeliveryAttempts(outbox.storedEvents(), projectId, endpointId, page),
      ),
    redeliverEvent: (projectId, eventId, endpointIds, now) =>
      attempt("redeliverEvent", () => outbox.redeliver(projectId, eventId, endpointIds, now)),
    purgeEventsBefore: (before, limit) => attempt("purgeEventsBefore", () => outbox.purge(before, limit)),
    findCustomer: (projectId, id) => attempt("findCustomer", () => customers.find(projectId, id)),
    listCustomers: (projectId, page) => attempt("listCustomers", () => customers.list(projectId, page)),
    saveCustomer: (customer, events) =>
      attemptWrite("saveCustomer", () => {
        const written = customers.save(customer);
        if (written === null) return err(CONFLICT);
        // Same synchronous step as the customer write: the events exist exactly when it does.
        if (written.kind === "saved") outbox.append(events);
        return ok(written);
      }),
    eraseCustomer: (customer, values, events) =>
      attemptWrite("eraseCustomer", () => {
        const written = customers.save(customer);
        if (written?.kind !== "saved") return err(CONFLICT);
        // The same synchronous step: the contacts, the stored history and the event.
        resources.eraseContacts(customer.projectId, customer.id);
        outbox.erase(customer.projectId, values);
        idempotency.erase(customer.projectId, values);
        outbox.append(events);
        return WROTE;
      }),
    checkHealth: () => okAsync(undefined),
    inspect: async () => {
      const tables = {
        ...projects.tables(),
        idempotency_records: idempotency.rows(),
        ...resources.tables(),
        ...refunds.tables(),
        ...customers.tables(),
        ...outbox.tables(),
      };
      return Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.map(asRow)]));
    },
  };
}
