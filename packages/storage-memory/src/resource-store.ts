import type { Invoice, StoredResource, Subscription } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";

function findInProject<T extends { projectId: string }>(rows: Map<string, T>, projectId: string, id: string) {
  const row = rows.get(id);
  // Another project's resource is answered exactly like a missing one.
  return row !== undefined && row.projectId === projectId ? deepCopy(row) : null;
}

/** Subscriptions and invoices, by id. Written only as part of an idempotent completion. */
export class ResourceStore {
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #invoices = new Map<string, Invoice>();

  store(resource: StoredResource): void {
    if (resource.kind === "subscription") {
      this.#subscriptions.set(resource.subscription.id, deepCopy(resource.subscription));
    } else {
      this.#invoices.set(resource.invoice.id, deepCopy(resource.invoice));
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
