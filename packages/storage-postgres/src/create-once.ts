import type { CreateOnceOutcome, IdempotencyStorage, NewIdempotencyRecord, OneStepWrite } from "@kopek/core";
import { CREATE_ONCE, type CreateOnceRow } from "./create-once-sql.js";
import { invoiceItem } from "./invoice-columns.js";
import { eventRows } from "./outbox-rows.js";
import { existingRecordOf } from "./rows.js";
import type { Query, SqlContext } from "./sql-context.js";
import { conflict } from "./storage-errors.js";
import type { TokenCipher } from "./token-cipher.js";

/** How `createOnce` batches writes (`PostgresStorageOptions.createBatches`). */
export interface CreateBatchOptions {
  /** Batch statements running at once; a create that finds them all busy waits for the next batch. Default 4. */
  readonly maxInFlight?: number;
  /** Writes in one statement at most. Default 64. */
  readonly maxSize?: number;
}

/** A write's answer from its statement: its outcome, or what it needs instead. */
type Answer =
  | CreateOnceOutcome
  /** Run it again on its own: its row was decided against a stale snapshot, or its batch failed. */
  | "again"
  /** Its invoice's id is taken (a `conflict`). */
  | "id_taken";

interface Create {
  readonly record: NewIdempotencyRecord;
  readonly write: OneStepWrite;
  /** Encrypts what the invoice keeps secret (its saved method's token). */
  readonly cipher: TokenCipher;
}

/**
 * `createOnce` over PostgreSQL: every write goes through one statement shape, `CREATE_ONCE`, alone or
 * with the other writes of its moment (`createBatches`). A write whose answer is stale, or whose batch
 * failed, is run again on its own, at most `maxAttempts` times in all.
 */
export function createOnceMethod(
  sql: SqlContext,
  options: CreateBatchOptions | false = {},
): IdempotencyStorage["createOnce"] {
  const batcher = options === false ? null : createBatcher(sql.query, options);
  // The first attempt joins a batch; a write run again goes on its own.
  const attempt = async (create: Create, first: boolean): Promise<Answer> => {
    try {
      if (first && batcher !== null) return await batcher.submit(create);
      return (await runStatement(sql.query, [create]))[0] ?? "again";
    } catch (error) {
      // An invoice of that id was committed concurrently: the statement wrote nothing.
      if ((error as { code?: string }).code === "23505") return "id_taken";
      throw error;
    }
  };
  return (record, write) =>
    sql.run("createOnce", async () => {
      const create = { record, write, cipher: sql.cipher };
      for (let n = 1; n <= sql.maxAttempts; n++) {
        const answer = await attempt(create, n === 1);
        if (answer === "id_taken") return sql.fail(conflict("createOnce", record));
        if (answer !== "again") return answer;
      }
      return sql.fail({
        code: "storage_failed",
        message: `storage-postgres: createOnce kept racing concurrent changes (${sql.maxAttempts} attempts)`,
      });
    });
}

/** Runs `CREATE_ONCE` for these writes (distinct keys, one project); the answers in the same order. */
async function runStatement(query: Query, creates: readonly Create[]): Promise<Answer[]> {
  const project = creates[0]?.record.projectId;
  if (project === undefined) return [];
  const { rows } = await query<CreateOnceRow>("create_once", CREATE_ONCE, [itemsOf(creates), project]);
  const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
  return creates.map((_, ord) => answerOf(byOrd.get(ord)));
}

interface Waiting extends Create {
  readonly settle: (answer: Answer) => void;
  readonly fail: (error: unknown) => void;
}

/**
 * Natural batching: the creates of one turn of the event loop go together (a lone create waits only
 * for the end of its turn), and while `maxInFlight` statements run, new creates wait and the next
 * statement takes every waiting one of a project (up to `maxSize`, one per key) at once. Under load
 * one statement, one transaction and one round trip serve many requests; every write in it commits,
 * or none does, and none is answered before it committed.
 */
function createBatcher(query: Query, options: CreateBatchOptions) {
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

  // The oldest waiting creates of the oldest one's project, one per key (a second create of a key,
  // or a create of another project, waits for a later batch): a statement stays within one project.
  function takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    const keys = new Set<string>();
    const project = waiting[0]?.record.projectId;
    for (const item of waiting) {
      const key = item.record.key;
      if (batch.length < maxSize && item.record.projectId === project && !keys.has(key)) {
        keys.add(key);
        batch.push(item);
      } else rest.push(item);
    }
    waiting = rest;
    return batch;
  }

  async function run(batch: readonly Waiting[]): Promise<void> {
    let answers: Answer[];
    try {
      answers = await runStatement(query, batch);
    } catch (error) {
      // Nothing was written. Alone, a create fails with its own error; together, each is run again
      // on its own, so that one bad write cannot fail the others.
      if (batch.length === 1) batch[0]?.fail(error);
      else for (const item of batch) item.settle("again");
      return;
    }
    batch.forEach((item, ord) => {
      item.settle(answers[ord] ?? "again");
    });
  }

  return {
    /** Stores the write with the next batch. */
    submit: (create: Create) =>
      new Promise<Answer>((settle, fail) => {
        waiting.push({ ...create, settle, fail });
        schedule();
      }),
  };
}

function answerOf(row: CreateOnceRow | undefined): Answer {
  switch (row?.outcome) {
    case "created":
      return { kind: "created" };
    case "key_revoked":
      return { kind: "key_revoked" };
    case "id_taken":
      return "id_taken";
    case "existing":
      return row.record === null ? "again" : { kind: "existing", record: existingRecordOf(row.record) };
    default:
      return "again";
  }
}

/** The statement's parameter: one JSON array, each write's fields named as `CREATE_ONCE` reads them. */
function itemsOf(creates: readonly Create[]): string {
  return JSON.stringify(
    creates.map(({ record, write, cipher }, ord) => ({
      ord,
      r_key: record.key,
      r_fingerprint: record.fingerprint,
      r_record_id: record.recordId,
      r_expires_at: record.expiresAt.toISOString(),
      r_now: record.now.toISOString(),
      r_api_key_id: record.apiKeyId,
      r_status: write.response.status,
      r_headers: write.response.headers,
      r_body: write.response.body,
      events: write.resource === null || write.events.length === 0 ? null : eventRows(write.events),
      ...(write.resource === null ? {} : invoiceItem(write.resource.invoice, cipher)),
    })),
  );
}
