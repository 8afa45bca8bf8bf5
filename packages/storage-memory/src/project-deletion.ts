import { holdsMoney, type MoneyRecordCounts, type ProjectDeletion } from "@kopek/core";
import type { CustomerStore } from "./customer-store.js";
import type { IdempotencyStore } from "./idempotency-store.js";
import type { OutboxStore } from "./outbox-store.js";
import type { ProjectStore } from "./project-store.js";
import type { RefundStore } from "./refund-store.js";
import type { ResourceStore } from "./resource-store.js";

export interface ProjectStores {
  readonly projects: ProjectStore;
  readonly resources: ResourceStore;
  readonly refunds: RefundStore;
  readonly customers: CustomerStore;
  readonly idempotency: IdempotencyStore;
  readonly outbox: OutboxStore;
}

// Every row of a project, however many: an operator's command, never a request's.
const ALL = { limit: Number.POSITIVE_INFINITY, before: null } as const;

/**
 * The port's `deleteProject`: counts the project's money records and, when there are none, forgets it
 * and everything it has, all in one synchronous step (nothing else runs in between).
 */
export function deleteProject(stores: ProjectStores, projectId: string): ProjectDeletion {
  if (!stores.projects.projectExists(projectId)) return { kind: "not_found" };
  const { resources, refunds } = stores;
  const money: MoneyRecordCounts = {
    invoices: resources.listInvoices(projectId, { ...ALL, status: null, now: new Date() }).length,
    subscriptions: resources.listSubscriptions(projectId, ALL).length,
    payments: resources.listPayments(projectId, {
      ...ALL,
      invoiceId: null,
      subscriptionId: null,
      status: null,
    }).length,
    refunds: refunds.listRefunds(projectId, { ...ALL, paymentId: null, status: null }).length,
  };
  if (holdsMoney(money)) return { kind: "has_money", money };
  const apiKeys = stores.projects.deleteProject(projectId);
  const customers = stores.customers.deleteProject(projectId);
  const idempotencyRecords = stores.idempotency.deleteProject(projectId);
  const outbox = stores.outbox.deleteProject(projectId);
  return { kind: "deleted", removed: { apiKeys, customers, idempotencyRecords, ...outbox } };
}
