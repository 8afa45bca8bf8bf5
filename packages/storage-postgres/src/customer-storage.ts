import type { CustomerRecord, CustomerStorage, CustomerWrite, Metadata } from "@kopek/core";
import { eventsParameter } from "./outbox-rows.js";
import { INSERT_EVENTS } from "./outbox-sql.js";
import { NO_CURSOR } from "./resource-sql.js";
import { toDate, toNullableDate } from "./rows.js";
import { isUuid, type Query, type SqlContext } from "./sql-context.js";
import { conflict } from "./storage-errors.js";

const CUSTOMER_COLUMNS =
  "id, project_id, email, phone, name, external_id, metadata, created_at, erased_at, version";

const FIND_CUSTOMER = `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE project_id = $1 AND id = $2`;

// $1 project, $2 before, $3 limit, $4 externalId, $5 email; a null filter matches all.
const LIST_CUSTOMERS = `
SELECT ${CUSTOMER_COLUMNS} FROM customers
 WHERE project_id = $1 AND id < $2
   AND ($4::text IS NULL OR external_id = $4::text)
   AND ($5::text IS NULL OR email = $5::text)
 ORDER BY id DESC LIMIT $3`;

/** The other customer of project $1 holding externalId $2, not $3. */
const EXTERNAL_ID_HOLDER = `
SELECT id FROM customers WHERE project_id = $1 AND external_id = $2 AND id <> $3`;

// $1 project, $2 id, $3 email, $4 phone, $5 name, $6 external id, $7 metadata, $8 created, $9 erased, $10 version.
const INSERT_CUSTOMER = `
INSERT INTO customers (project_id, id, email, phone, name, external_id, metadata, created_at, erased_at, version)
VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9, $10)
ON CONFLICT DO NOTHING
RETURNING 1`;

const UPDATE_CUSTOMER = `
UPDATE customers
   SET email = $3, phone = $4, name = $5, external_id = $6, metadata = $7::json, created_at = $8,
       erased_at = $9, version = $10
 WHERE project_id = $1 AND id = $2 AND version = $10 - 1
RETURNING 1`;

/**
 * A jsonb contact with its present, non-null email and phone made "erased". Immutable functions only
 * (`jsonb_set`, `->`): Citus refuses others inside a CASE of a distributed UPDATE.
 */
const erasedField = (json: string, field: string) =>
  `CASE WHEN (${json})->'${field}' <> 'null'::jsonb THEN jsonb_set(${json}, '{${field}}', '"erased"'::jsonb) ELSE ${json} END`;
const erasedContact = (contact: string) => erasedField(erasedField(contact, "email"), "phone");

const ERASED_RECEIPT = `CASE WHEN receipt IS NULL OR jsonb_typeof(receipt) = 'null' THEN receipt
       ELSE jsonb_set(receipt, '{customer}', ${erasedContact("(receipt->'customer')")}) END`;

/** The contacts of customer $2's invoices in project $1 (API.md 11.1), each one version on. */
const ERASE_INVOICE_CONTACTS = `
UPDATE invoices
   SET customer = CASE WHEN customer IS NULL OR jsonb_typeof(customer) = 'null' THEN customer
                       ELSE ${erasedContact("customer")} END,
       receipt = ${ERASED_RECEIPT},
       version = version + 1
 WHERE project_id = $1 AND customer_id = $2`;

const ERASE_SUBSCRIPTION_RECEIPTS = `
UPDATE subscriptions SET receipt = ${ERASED_RECEIPT}, version = version + 1
 WHERE project_id = $1 AND customer_id = $2 AND receipt IS NOT NULL`;

/** Every JSON string $2 (as JSON text) in project $1's events and stored responses becomes "erased". */
const ERASE_EVENT_TEXT = `
UPDATE events SET data = replace(data::text, $2, '"erased"')::json
 WHERE project_id = $1 AND strpos(data::text, $2) > 0`;

const ERASE_RESPONSE_TEXT = `
UPDATE idempotency_records SET response_body = replace(response_body, $2, '"erased"')
 WHERE project_id = $1 AND strpos(response_body, $2) > 0`;

type Row = Record<string, unknown>;

function toCustomer(row: Row): CustomerRecord {
  const text = (value: unknown) => (value === null ? null : String(value));
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    email: text(row.email),
    phone: text(row.phone),
    name: text(row.name),
    externalId: text(row.external_id),
    metadata: row.metadata as Metadata,
    createdAt: toDate(row.created_at),
    erasedAt: toNullableDate(row.erased_at),
    version: Number(row.version),
  };
}

function customerValues(c: CustomerRecord): unknown[] {
  return [
    c.projectId,
    c.id,
    c.email,
    c.phone,
    c.name,
    c.externalId,
    JSON.stringify(c.metadata),
    c.createdAt,
    c.erasedAt,
    c.version,
  ];
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

/** Customers (API.md 11.1): each write one transaction with its events. */
export function customerStorage(sql: SqlContext): CustomerStorage {
  const { query, run, fail, transaction } = sql;

  const holder = async (q: Query, customer: CustomerRecord): Promise<string | null> => {
    if (customer.externalId === null) return null;
    const { rows } = await q<{ id: string }>("customer_external_id_holder", EXTERNAL_ID_HOLDER, [
      customer.projectId,
      customer.externalId,
      customer.id,
    ]);
    return rows[0] === undefined ? null : String(rows[0].id);
  };

  const saveOnce = (customer: CustomerRecord, events: string) =>
    transaction(async (q): Promise<CustomerWrite> => {
      const taken = await holder(q, customer);
      if (taken !== null) return { kind: "taken", customerId: taken };
      const values = customerValues(customer);
      const { rows } =
        customer.version === 1
          ? await q("insert_customer", INSERT_CUSTOMER, values)
          : await q("update_customer", UPDATE_CUSTOMER, values);
      if (rows.length === 0) {
        if (customer.version === 1) {
          const found = await q<Row>("find_customer", FIND_CUSTOMER, [customer.projectId, customer.id]);
          const stored = found.rows[0];
          if (stored !== undefined) return { kind: "exists", customer: toCustomer(stored) };
          // Not this id: its externalId, taken meanwhile by a customer this snapshot cannot see yet.
          throw Object.assign(new Error("customers_external_id_key"), { code: "23505" });
        }
        return fail(conflict("saveCustomer", customer));
      }
      await q("insert_events", INSERT_EVENTS, [events, customer.projectId]);
      return { kind: "saved" };
    });

  return {
    findCustomer: (projectId, customerId) =>
      run("findCustomer", async () => {
        if (!isUuid(customerId)) return null;
        const { rows } = await query<Row>("find_customer", FIND_CUSTOMER, [projectId, customerId]);
        return rows[0] === undefined ? null : toCustomer(rows[0]);
      }),

    listCustomers: (projectId, page) =>
      run("listCustomers", async () => {
        const { rows } = await query<Row>("list_customers", LIST_CUSTOMERS, [
          projectId,
          page.before ?? NO_CURSOR,
          page.limit,
          page.externalId,
          page.email,
        ]);
        return rows.map(toCustomer);
      }),

    eraseCustomer: (customer, values, events) =>
      run("eraseCustomer", async () => {
        const parameter = eventsParameter(events);
        await transaction(async (q) => {
          const { rows } = await q("update_customer", UPDATE_CUSTOMER, customerValues(customer));
          if (rows.length === 0) return fail(conflict("eraseCustomer", customer));
          const target = [customer.projectId, customer.id];
          await q("erase_invoice_contacts", ERASE_INVOICE_CONTACTS, target);
          await q("erase_subscription_receipts", ERASE_SUBSCRIPTION_RECEIPTS, target);
          for (const value of values) {
            const token = [customer.projectId, JSON.stringify(value)];
            await q("erase_event_text", ERASE_EVENT_TEXT, token);
            await q("erase_response_text", ERASE_RESPONSE_TEXT, token);
          }
          await q("insert_events", INSERT_EVENTS, [parameter, customer.projectId]);
        });
      }),

    saveCustomer: (customer, events) =>
      run("saveCustomer", async () => {
        const parameter = eventsParameter(events);
        try {
          return await saveOnce(customer, parameter);
        } catch (error) {
          // A concurrent write took the externalId between the check and the write: once more sees it.
          if (!isUniqueViolation(error)) throw error;
          return await saveOnce(customer, parameter);
        }
      }),
  };
}
