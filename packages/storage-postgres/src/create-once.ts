import type {
  CreateOnceOutcome,
  IdempotentCreate,
  IdempotentWrite,
  Storage,
  StorageError,
} from "@kopek/core";
import type { CreateBatcher } from "./create-batch.js";
import { type CreateOnceRow, createOnceStatement, LOOK_UP_KEY } from "./create-once-sql.js";
import { eventsParameter } from "./outbox-rows.js";
import { outboxCtes } from "./outbox-sql.js";
import type { Query, Run } from "./outbox-storage.js";
import { CREATE_INVOICE_FROM_RECORD, CREATE_SUBSCRIPTION_FROM_RECORD } from "./resource-sql.js";
import { existingRecordOf, invoiceValues, subscriptionValues } from "./rows.js";
import { conflict } from "./storage-errors.js";
import type { TokenCipher } from "./token-cipher.js";

/** The parameter the events take in a statement, after the resource's fields. */
const eventsParam = (values: readonly unknown[]) => values.length + 1;

const INVOICE = { insert: CREATE_INVOICE_FROM_RECORD, table: "invoices" } as const;
const SUBSCRIPTION = { insert: CREATE_SUBSCRIPTION_FROM_RECORD, table: "subscriptions" } as const;

// The statements, by what is created with the record: the text is fixed per name (prepared once).
const STATEMENTS = {
  create_once: createOnceStatement(null),
  create_once_invoice: createOnceStatement(INVOICE),
  create_once_subscription: createOnceStatement(SUBSCRIPTION),
} as const;
const RESOURCES = { create_once: null, create_once_invoice: INVOICE, create_once_subscription: SUBSCRIPTION };
const withEvents = new Map<string, string>();

/**
 * `createOnce` over PostgreSQL: `build` runs first (a pure function of the request), then one
 * statement writes the record, the resource and its events when the key is free, or reads what the
 * key holds. When `build` makes nothing, one read-only statement tells a free key from a taken one.
 */
export function createOnceMethod(
  query: Query,
  run: Run,
  cipher: TokenCipher,
  maxAttempts: number,
  fail: (error: StorageError) => never,
  batcher: CreateBatcher | null,
): Storage["createOnce"] {
  async function once(create: IdempotentCreate, write: IdempotentWrite | null) {
    if (write === null) {
      const { rows } = await query<CreateOnceRow>("look_up_key", LOOK_UP_KEY, [
        create.projectId,
        create.key,
        create.now,
        create.apiKeyId,
      ]);
      return rows[0] === undefined ? ({ kind: "not_built" } as const) : outcomeOf(rows[0]);
    }
    const [name, text, values] = statementFor(create, write, cipher);
    try {
      const { rows } = await query<CreateOnceRow>(name, text, values);
      // An existing record is the answer even when the discarded resource's id was taken as well.
      const answer = rows.find((r) => r.outcome !== "id_taken");
      if (answer !== undefined) return outcomeOf(answer);
      return rows.length > 0 ? fail(conflict("createOnce", create)) : null;
    } catch (error) {
      // The new resource's id is taken: the statement wrote nothing.
      if ((error as { code?: string }).code === "23505") fail(conflict("createOnce", create));
      throw error;
    }
  }

  return (create) =>
    run("createOnce", async () => {
      const write = create.build();
      if (write !== null && batcher?.accepts(write)) {
        const answer = await batcher.submit(create, write);
        if (answer === "id_taken") return fail(conflict("createOnce", create));
        if (answer !== "alone") return answer;
      }
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const outcome = await once(create, write);
        // No row: the key changed after the statement's snapshot was taken; a new one will see it.
        if (outcome !== null) return outcome;
      }
      return fail({
        code: "storage_failed",
        message: `storage-postgres: createOnce kept racing concurrent changes (${maxAttempts} attempts)`,
      });
    });
}

function statementFor(
  create: IdempotentCreate,
  write: IdempotentWrite,
  cipher: TokenCipher,
): [string, string, unknown[]] {
  const { response, resource } = write;
  const record = [
    create.projectId,
    create.key,
    create.fingerprint,
    create.recordId,
    create.expiresAt.toISOString(),
    create.now.toISOString(),
    create.apiKeyId,
    response.status,
    JSON.stringify(response.headers),
    response.body,
  ];
  const [name, values]: [keyof typeof STATEMENTS, unknown[]] =
    resource === null
      ? ["create_once", record]
      : resource.kind === "invoice"
        ? ["create_once_invoice", [...record, ...invoiceValues(resource.invoice)]]
        : ["create_once_subscription", [...record, ...subscriptionValues(resource.subscription, cipher)]];
  if (resource === null || write.events.length === 0) return [name, STATEMENTS[name], values];
  // With events: the outbox CTEs too, written only when the resource is.
  const eventful = `${name}_events`;
  let text = withEvents.get(eventful);
  if (text === undefined) {
    text = createOnceStatement(RESOURCES[name], outboxCtes(eventsParam(values), "resource"));
    withEvents.set(eventful, text);
  }
  return [eventful, text, [...values, eventsParameter(write.events)]];
}

function outcomeOf(row: CreateOnceRow): CreateOnceOutcome {
  if (row.outcome === "created") return { kind: "created" };
  if (row.outcome === "key_revoked") return { kind: "key_revoked" };
  if (row.record === null) throw new Error(`storage-postgres: createOnce: ${row.outcome} without a record`);
  return { kind: "existing", record: existingRecordOf(row.record) };
}
