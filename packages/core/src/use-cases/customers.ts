import { err, ok, type Result } from "neverthrow";
import { parseListQuery, type QueryParameters } from "../api/list-query.js";
import type { KopekError } from "../domain/errors.js";
import type { CustomerRecord } from "../domain/model.js";
import { presentCustomer } from "../domain/presenters.js";
import { type CustomerEventType, customerEvent } from "../events/domain-event.js";
import type { CreateCustomerRequest, UpdateCustomerRequest } from "../validation/customer-schemas.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";
import { pageBody, type ReadContext, type ReadOutcome } from "./read-resources.js";

/**
 * POST /v1/customers (API.md 11.1): a new customer, whose id is the idempotency record's, so a
 * re-execution answers the one it stored. Another customer of the project with this `externalId`:
 * 409 `customer_exists`, naming it.
 */
export async function createCustomer(
  execution: Execution,
  input: CreateCustomerRequest,
): Promise<Result<Outcome, KopekError>> {
  const customer: CustomerRecord = {
    id: execution.recordId,
    projectId: execution.project.id,
    email: input.email ?? null,
    phone: input.phone ?? null,
    name: input.name ?? null,
    externalId: input.externalId ?? null,
    metadata: input.metadata ?? {},
    createdAt: execution.now,
    erasedAt: null,
    version: 1,
  };
  return written(execution, customer, "customer.created", 201);
}

/**
 * POST /v1/customers/{id} (API.md 11.1): changes the fields sent (null clears one); the customer keeps
 * at least one of email, phone and externalId. An erased customer takes no personal data again.
 */
export async function updateCustomer(
  execution: Execution,
  input: UpdateCustomerRequest,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findCustomer(execution.project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  const pick = <K extends "email" | "phone" | "name" | "externalId">(field: K) =>
    input[field] === undefined ? current[field] : (input[field] ?? null);
  const customer: CustomerRecord = {
    ...current,
    email: pick("email"),
    phone: pick("phone"),
    name: pick("name"),
    externalId: pick("externalId"),
    metadata: input.metadata ?? current.metadata,
    version: current.version + 1,
  };
  if (customer.email === null && customer.phone === null && customer.externalId === null)
    return err({
      code: "validation_failed",
      errors: [
        {
          pointer: "#",
          code: "required",
          detail: "the customer must keep an email, a phone or an externalId",
        },
      ],
    });
  if (
    current.erasedAt !== null &&
    (customer.email !== null || customer.phone !== null || customer.name !== null)
  )
    return err({ code: "invalid_state", detail: "the customer was erased and takes no personal data again" });
  if (JSON.stringify(presentCustomer(customer)) === JSON.stringify(presentCustomer(current)))
    return ok({ status: 200, resource: null, body: presentCustomer(current) });
  return written(execution, customer, "customer.updated", 200);
}

/**
 * POST /v1/customers/{id}/erase (API.md 11.1, 152-FZ): email, phone and name become null, and every
 * receipt contact of the customer's invoices and subscriptions "erased", in storage; money records
 * stay; `customer.erased`. Erasing an erased customer changes nothing.
 */
export async function eraseCustomer(execution: Execution, id: string): Promise<Result<Outcome, KopekError>> {
  const found = await execution.storage.findCustomer(execution.project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  if (current.erasedAt !== null) return ok({ status: 200, resource: null, body: presentCustomer(current) });
  const customer: CustomerRecord = {
    ...current,
    email: null,
    phone: null,
    name: null,
    erasedAt: execution.now,
    version: current.version + 1,
  };
  const values = [current.email, current.phone, current.name].filter((v): v is string => v !== null);
  const event = customerEvent("customer.erased", customer, execution.now, execution.ids);
  const erased = await execution.storage.eraseCustomer(customer, values, [event]);
  if (erased.isErr()) return err(fromStorageError(erased.error));
  return ok({ status: 200, resource: null, body: presentCustomer(customer) });
}

/** Stores the customer with its event; 409 `customer_exists` when its externalId is another's. */
async function written(
  execution: Execution,
  customer: CustomerRecord,
  type: CustomerEventType,
  status: 200 | 201,
): Promise<Result<Outcome, KopekError>> {
  const event = customerEvent(type, customer, execution.now, execution.ids);
  const saved = await execution.storage.saveCustomer(customer, [event]);
  if (saved.isErr()) return err(fromStorageError(saved.error));
  const outcome = saved.value;
  if (outcome.kind === "taken")
    return err({
      code: "customer_exists",
      detail: `customer ${outcome.customerId} of this project has this externalId`,
    });
  const stored = outcome.kind === "exists" ? outcome.customer : customer;
  // The customer is stored already, with its event: the key stores only the answer.
  return ok({
    status,
    resource: null,
    ...(status === 201 ? { location: `/v1/customers/${stored.id}` } : {}),
    body: presentCustomer(stored),
  });
}

/** GET /v1/customers/{id}: another project's id is answered exactly like an unknown one. */
export async function getCustomer(
  context: ReadContext,
  id: string,
): Promise<Result<ReadOutcome, KopekError>> {
  const found = await context.storage.findCustomer(context.projectId, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  return found.value === null ? err({ code: "not_found" }) : ok({ body: presentCustomer(found.value) });
}

/** GET /v1/customers: newest first, by `externalId` and `email` (exact). */
export async function listCustomers(
  context: ReadContext,
  query: QueryParameters,
): Promise<Result<ReadOutcome, KopekError>> {
  const page = parseListQuery(query, null, [], ["externalId", "email"]);
  if (page.isErr()) return err(page.error);
  const { limit, before, texts } = page.value;
  const rows = await context.storage.listCustomers(context.projectId, {
    limit: limit + 1,
    before,
    externalId: texts.externalId ?? null,
    email: texts.email ?? null,
  });
  if (rows.isErr()) return err(fromStorageError(rows.error));
  return ok({ body: pageBody(rows.value, limit, presentCustomer) });
}
