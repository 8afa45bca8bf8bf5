import type { CreateOnceOutcome, IdempotentCreate, IdempotentWrite, Invoice } from "@kopek/core";
import { CREATE_INVOICE_BATCH, type CreateBatchRow } from "./create-batch-sql.js";
import type { Query } from "./outbox-storage.js";
import { existingRecordOf } from "./rows.js";

/** How `createOnce` batches new invoices (`PostgresStorageOptions.createBatches`). */
export interface CreateBatchOptions {
  /** Batch statements running at once; a create that finds them all busy waits for the next batch. Default 4. */
  readonly maxInFlight?: number;
  /** Invoices in one statement at most. Default 64. */
  readonly maxSize?: number;
}

/** A batch's answer for one create: its outcome, or what it needs instead. */
export type BatchAnswer =
  | CreateOnceOutcome
  /** Run it on its own: its row was decided against a stale snapshot, or its batch failed. */
  | "alone"
  /** Its invoice's id is taken (a `conflict`). */
  | "id_taken";

/** A write the batcher takes: a new invoice, with no events. */
export type InvoiceWrite = IdempotentWrite & {
  readonly resource: { readonly kind: "invoice"; readonly invoice: Invoice };
};

interface Waiting {
  readonly create: IdempotentCreate;
  readonly write: InvoiceWrite;
  readonly settle: (answer: BatchAnswer) => void;
  readonly fail: (error: unknown) => void;
}

export interface CreateBatcher {
  /** Whether `write` can go in a batch: a new invoice, with no events. */
  accepts(write: IdempotentWrite): write is InvoiceWrite;
  /** Stores `write` under the create's key with the next batch. */
  submit(create: IdempotentCreate, write: InvoiceWrite): Promise<BatchAnswer>;
}

/**
 * Natural batching: the creates of one turn of the event loop go together (a lone create waits only
 * for the end of its turn), and while `maxInFlight` batch statements run, new creates wait and the
 * next statement takes every waiting one (up to `maxSize`, one per key) at once. Under load one
 * statement, one transaction and one round trip serve many requests. A batch is one transaction:
 * every invoice in it, and its record, commits or none does, and none is answered before it committed.
 */
export function createBatcher(query: Query, options: CreateBatchOptions = {}): CreateBatcher {
  const maxInFlight = Math.max(1, options.maxInFlight ?? 4);
  const maxSize = Math.max(1, options.maxSize ?? 64);
  let waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  // After the current turn: every create its requests reach by then joins the same batch.
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  function pump(): void {
    while (inFlight < maxInFlight && waiting.length > 0) {
      const batch = takeBatch();
      inFlight += 1;
      void run(batch).finally(() => {
        inFlight -= 1;
        schedule();
      });
    }
  }

  // The oldest waiting creates, one per key (a second create of a key waits for a later batch).
  function takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    const keys = new Set<string>();
    for (const item of waiting) {
      const key = `${item.create.projectId} ${item.create.key}`;
      if (batch.length < maxSize && !keys.has(key)) {
        keys.add(key);
        batch.push(item);
      } else rest.push(item);
    }
    waiting = rest;
    return batch;
  }

  async function run(batch: readonly Waiting[]): Promise<void> {
    let rows: CreateBatchRow[];
    try {
      rows = (await query<CreateBatchRow>("create_once_invoices", CREATE_INVOICE_BATCH, [itemsOf(batch)]))
        .rows;
    } catch (error) {
      // Nothing was written. Alone, a create fails with its own error; together, each is run on its
      // own, so that one bad item cannot fail the others.
      if (batch.length === 1) batch[0]?.fail(error);
      else for (const item of batch) item.settle("alone");
      return;
    }
    const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
    batch.forEach((item, ord) => {
      item.settle(answerOf(byOrd.get(ord)));
    });
  }

  return {
    accepts: (write): write is InvoiceWrite =>
      write.resource?.kind === "invoice" && write.resource.invoice.version === 1 && write.events.length === 0,
    submit: (create, write) =>
      new Promise<BatchAnswer>((settle, fail) => {
        waiting.push({ create, write, settle, fail });
        schedule();
      }),
  };
}

function answerOf(row: CreateBatchRow | undefined): BatchAnswer {
  switch (row?.outcome) {
    case "created":
      return { kind: "created" };
    case "key_revoked":
      return { kind: "key_revoked" };
    case "id_taken":
      return "id_taken";
    case "existing":
      return row.record === null ? "alone" : { kind: "existing", record: existingRecordOf(row.record) };
    default:
      return "alone";
  }
}

/** The batch parameter: one JSON array, each item's fields named as `CREATE_INVOICE_BATCH` reads them. */
function itemsOf(batch: readonly Waiting[]): string {
  return JSON.stringify(
    batch.map(({ create, write }, ord) => {
      const i = write.resource.invoice;
      return {
        ord,
        project_id: create.projectId,
        r_key: create.key,
        r_fingerprint: create.fingerprint,
        r_record_id: create.recordId,
        r_expires_at: create.expiresAt.toISOString(),
        r_now: create.now.toISOString(),
        r_api_key_id: create.apiKeyId,
        r_status: write.response.status,
        r_headers: write.response.headers,
        r_body: write.response.body,
        id: i.id,
        status: i.status,
        amount: i.amount.amount,
        currency: i.amount.currency,
        description: i.description,
        comment: i.comment,
        customer: i.customer,
        metadata: i.metadata,
        payment_url: i.paymentUrl,
        return_url: i.returnUrl,
        allowed_methods: i.allowedMethods,
        method: i.method,
        pinned_method: i.pinnedMethod,
        created_at: i.createdAt.toISOString(),
        expires_at: i.expiresAt.toISOString(),
        paid_at: i.paidAt?.toISOString() ?? null,
        canceled_at: i.canceledAt?.toISOString() ?? null,
        version: i.version,
      };
    }),
  );
}
