import type { Invoice, StoredResource, Subscription } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";

function findInProject<T extends { projectId: string }>(rows: Map<string, T>, projectId: string, id: string) {
  const row = rows.get(id);
  // Another project's resource is answered exactly like a missing one.
  return row !== undefined && row.projectId === projectId ? deepCopy(row) : null;
}

// A Map iterates in insertion order, so its first key is the oldest resource.
function setBounded<T>(rows: Map<string, T>, id: string, row: T, max: number): void {
  rows.set(id, row);
  if (rows.size > max) rows.delete(rows.keys().next().value as string);
}

/**
 * Subscriptions and invoices, by id. Written only as part of an idempotent completion. Each kind keeps
 * at most `maxResources` rows, dropping the oldest first, so a long-running development server cannot
 * grow without bound.
 */
export class ResourceStore {
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #invoices = new Map<string, Invoice>();

  constructor(private readonly maxResources: number) {}

  store(resource: StoredResource): void {
    if (resource.kind === "subscription") {
      setBounded(
        this.#subscriptions,
        resource.subscription.id,
        deepCopy(resource.subscription),
        this.maxResources,
      );
    } else {
      setBounded(this.#invoices, resource.invoice.id, deepCopy(resource.invoice), this.maxResources);
    }
  }

  findSubscription(projectId: string, subscriptionId: string): Subscription | null {
    return findInProject(this.#subscriptions, projectId, subscriptionId);
  }

  findInvoice(projectId: string, invoiceId: string): Invoice | null {
    return findInProject(this.#invoices, projectId, invoiceId);
  }

  /** The stored rows, for `inspect()`. */
  tables() {
    return {
      subscriptions: [...this.#subscriptions.values()].map(deepCopy),
      invoices: [...this.#invoices.values()].map(deepCopy),
    };
  }
}
