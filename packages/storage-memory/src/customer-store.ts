import type { CustomerListPage, CustomerRecord, CustomerWrite } from "@kopek/core";
import { deepCopy } from "./deep-copy.js";
import { copies, find, indexNew, list, table } from "./table.js";

/**
 * Customers (API.md 11.1), by id, with each project's `externalId`s held by one customer at most.
 * Keeps at most `maxResources` rows, dropping the oldest, like the other resources.
 */
export class CustomerStore {
  readonly #customers = table(copies<CustomerRecord>());
  /** `project id + externalId` → the id of the customer holding it. */
  readonly #externalIds = new Map<string, string>();
  /** The reverse: customer id → its key in `#externalIds`. */
  readonly #keys = new Map<string, string>();

  constructor(private readonly maxResources: number) {}

  /** Writes version 1 as new, version n over n−1; null on a version conflict. */
  save(customer: CustomerRecord): CustomerWrite | null {
    const stored = this.#customers.rows.get(customer.id);
    if (customer.version === 1 && stored !== undefined)
      return stored.projectId === customer.projectId ? { kind: "exists", customer: deepCopy(stored) } : null;
    if (
      customer.version !== 1 &&
      (stored?.projectId !== customer.projectId || stored.version !== customer.version - 1)
    )
      return null;
    if (customer.externalId !== null) {
      const holder = this.#holder(customer.projectId, customer.externalId);
      if (holder !== null && holder !== customer.id) return { kind: "taken", customerId: holder };
    }
    this.#forget(customer.id);
    if (customer.externalId !== null) {
      const key = externalKey(customer.projectId, customer.externalId);
      this.#externalIds.set(key, customer.id);
      this.#keys.set(customer.id, key);
    }
    this.#customers.rows.set(customer.id, deepCopy(customer));
    if (customer.version === 1) {
      const evicted = indexNew(this.#customers, customer.id, customer.projectId, this.maxResources);
      if (evicted !== null) this.#forget(evicted);
    }
    return { kind: "saved" };
  }

  find(projectId: string, id: string): CustomerRecord | null {
    return find(this.#customers, projectId, id);
  }

  list(projectId: string, page: CustomerListPage): CustomerRecord[] {
    const { externalId, email } = page;
    return list(
      this.#customers,
      projectId,
      page,
      (c) => (externalId === null || c.externalId === externalId) && (email === null || c.email === email),
    );
  }

  /** Forgets every customer of the project (its deletion); how many went. */
  deleteProject(projectId: string): number {
    let deleted = 0;
    for (const row of [...this.#customers.rows.values()]) {
      if (row.projectId !== projectId) continue;
      this.#forget(row.id);
      this.#customers.rows.delete(row.id);
      deleted += 1;
    }
    // Their ids left in the eviction order are skipped there, as ids deleted otherwise are.
    this.#customers.byProject.delete(projectId);
    return deleted;
  }

  /** The stored rows, for `inspect()`. */
  tables() {
    return { customers: [...this.#customers.rows.values()].map(deepCopy) };
  }

  #holder(projectId: string, externalId: string): string | null {
    const id = this.#externalIds.get(externalKey(projectId, externalId));
    if (id === undefined) return null;
    const row = this.#customers.rows.get(id);
    return row !== undefined && row.externalId === externalId ? id : null;
  }

  /** Drops the externalId of an evicted or deleted customer. */
  #forget(id: string): void {
    const key = this.#keys.get(id);
    this.#keys.delete(id);
    if (key !== undefined && this.#externalIds.get(key) === id) this.#externalIds.delete(key);
  }
}

function externalKey(projectId: string, externalId: string): string {
  return `${projectId} ${externalId}`;
}
