import {
  type DomainEvent,
  type InvoicePage,
  type Payment,
  type ResourcePage,
  type ResourceStorage,
  refusedResource,
} from "@kopek/core";
import { INVOICE_SELECT, invoiceValues } from "./invoice-columns.js";
import { eventsParameter } from "./outbox-rows.js";
import { updateWithOutbox } from "./outbox-sql.js";
import { writePayments } from "./payment-storage.js";
import {
  LIST_INVOICES,
  LIST_INVOICES_EXPIRED,
  LIST_INVOICES_IN_STATUS,
  LIST_INVOICES_OF_CUSTOMER,
  LIST_INVOICES_OPEN,
  LIST_SUBSCRIPTIONS,
  LIST_SUBSCRIPTIONS_OF_CUSTOMER,
  NO_CURSOR,
  SAVE_INVOICE,
  SAVE_SUBSCRIPTION,
} from "./resource-sql.js";
import { SUBSCRIPTION_COLUMNS, subscriptionValues, toInvoice, toSubscription } from "./rows.js";
import { isUuid, type Query, type SqlContext } from "./sql-context.js";
import { conflict } from "./storage-errors.js";

/** Subscriptions and invoices by project: reads, pages, and version-checked saves with their events. */
export function resourceStorage(sql: SqlContext): ResourceStorage {
  const { query, run, fail, cipher, transaction } = sql;
  /** A version-checked UPDATE, with the outbox CTEs when there are events; whether it wrote. */
  async function saveWithOutbox(
    query: Query,
    name: string,
    text: string,
    values: unknown[],
    events: readonly DomainEvent[],
  ) {
    if (events.length === 0) return (await query(name, text, values)).rowCount === 1;
    // Every resource statement's $1 is its project.
    const withEvents = updateWithOutbox(text, values.length + 1, 1);
    const { rows } = await query<{ written: number }>(`${name}_events`, withEvents, [
      ...values,
      eventsParameter(events),
    ]);
    return rows[0]?.written === 1;
  }

  /**
   * A resource's save with its events and payments: one statement when there are no payments, else
   * one transaction of the payments' writes and that statement; whether everything was written (a
   * transaction that was not is rolled back).
   */
  async function save(
    operation: string,
    target: { projectId: string },
    statement: [name: string, text: string, values: unknown[]],
    events: readonly DomainEvent[],
    payments: readonly Payment[],
  ): Promise<void> {
    const written = async (q: Query) =>
      (await writePayments(q, payments)) && (await saveWithOutbox(q, ...statement, events));
    const ok =
      payments.length === 0
        ? await written(query)
        : await transaction(async (q) => (await written(q)) || fail(conflict(operation, target)));
    if (!ok) fail(conflict(operation, target));
  }

  return {
    findSubscription: (projectId, subscriptionId) =>
      run("findSubscription", async () => {
        if (!isUuid(projectId) || !isUuid(subscriptionId)) return null;
        const { rows } = await query(
          "find_subscription",
          `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE project_id = $1 AND id = $2`,
          [projectId, subscriptionId],
        );
        return rows[0] === undefined ? null : toSubscription(rows[0], cipher);
      }),

    findInvoice: (projectId, invoiceId) =>
      run("findInvoice", async () => {
        if (!isUuid(projectId) || !isUuid(invoiceId)) return null;
        const { rows } = await query(
          "find_invoice",
          `SELECT ${INVOICE_SELECT} FROM invoices WHERE project_id = $1 AND id = $2`,
          [projectId, invoiceId],
        );
        return rows[0] === undefined ? null : toInvoice(rows[0], cipher);
      }),

    findInvoiceById: (invoiceId) =>
      run("findInvoiceById", async () => {
        if (!isUuid(invoiceId)) return null;
        // The one lookup by id alone (a payment link handed out before links named the project).
        const rows = await sql.acrossProjects(
          "find_invoice_by_id",
          `SELECT ${INVOICE_SELECT} FROM invoices WHERE id = $1`,
          [invoiceId],
        );
        return rows[0] === undefined ? null : toInvoice(rows[0], cipher);
      }),

    listSubscriptions: (projectId, page) =>
      run("listSubscriptions", async () => {
        const parameters = pageParameters(projectId, page);
        if (parameters === null) return [];
        const customerId = page.customerId ?? null;
        const { rows } =
          customerId === null
            ? await query("list_subscriptions", LIST_SUBSCRIPTIONS, parameters)
            : await query("list_subscriptions_of_customer", LIST_SUBSCRIPTIONS_OF_CUSTOMER, [
                ...parameters,
                customerId,
              ]);
        return rows.map((row) => toSubscription(row, cipher));
      }),

    listInvoices: (projectId, page) =>
      run("listInvoices", async () => {
        const parameters = pageParameters(projectId, page);
        if (parameters === null) return [];
        const [name, text, filter] = invoiceListStatement(page);
        const { rows } = await query(name, text, [...parameters, ...filter]);
        return rows.map((row) => toInvoice(row, cipher));
      }),

    saveSubscription: (subscription, events, payments) =>
      run("saveSubscription", async () => {
        const refused = refusedResource("storage-postgres", { kind: "subscription", subscription });
        if (refused !== null) return fail(refused);
        const values = [subscription.projectId, ...subscriptionValues(subscription, cipher)];
        await save(
          "saveSubscription",
          subscription,
          ["save_subscription", SAVE_SUBSCRIPTION, values],
          events,
          payments,
        );
      }),

    saveInvoice: (invoice, events, payments) =>
      run("saveInvoice", async () => {
        if (invoice.version < 2) fail(conflict("saveInvoice", invoice));
        const values = [invoice.projectId, ...invoiceValues(invoice, cipher)];
        await save("saveInvoice", invoice, ["save_invoice", SAVE_INVOICE, values], events, payments);
      }),
  };
}

/** A list's cursor and limit as parameters; null when the page can hold nothing. */
function pageParameters(projectId: string, page: ResourcePage): [string, string, number] | null {
  const limit = Math.floor(page.limit);
  if (!isUuid(projectId) || !(limit > 0)) return null;
  if (page.before !== null && !isUuid(page.before)) return null;
  return [projectId, page.before ?? NO_CURSOR, limit];
}

/** The statement for an invoice page: its status filter decides which index serves it. */
function invoiceListStatement(page: InvoicePage): [string, string, unknown[]] {
  const customerId = page.customerId ?? null;
  if (customerId !== null)
    return ["list_invoices_of_customer", LIST_INVOICES_OF_CUSTOMER, [customerId, page.status, page.now]];
  switch (page.status) {
    case null:
      return ["list_invoices", LIST_INVOICES, []];
    case "created":
      return ["list_invoices_open", LIST_INVOICES_OPEN, [page.now]];
    case "expired":
      return ["list_invoices_expired", LIST_INVOICES_EXPIRED, [page.now]];
    default:
      return ["list_invoices_in_status", LIST_INVOICES_IN_STATUS, [page.status]];
  }
}
