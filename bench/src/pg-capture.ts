import { randomUUID } from "node:crypto";
import { createKopek } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import {
  createPostgresStorage,
  createTokenCipher,
  migrate,
  type PostgresPool,
  type PostgresPoolClient,
} from "@kopek/storage-postgres";
import pg from "pg";
import { INVOICE_BODY } from "./bodies.mjs";
import type { BenchProject } from "./servers.js";

/** One statement the adapter sent, with its parameters and their types as PostgreSQL infers them. */
export interface CapturedStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  /** Per parameter: `uuid`, `text`, `timestamp with time zone`, …; `unknown` when not inferable. */
  types: readonly string[];
}

export interface Capture {
  /** The statements of one create request in steady state (the third), in order. */
  readonly statements: readonly CapturedStatement[];
  /** The same request's statements one request earlier, to tell per-request values from constants. */
  readonly previous: readonly CapturedStatement[];
  /** Round trips of the first request on a fresh instance (caches empty). */
  readonly firstRequestRoundTrips: number;
}

type Recorded = { text: string; values: unknown[] };
type QueryInput = Parameters<PostgresPool["query"]>[0];

function record(log: Recorded[], input: QueryInput): void {
  if (typeof input === "string") log.push({ text: input, values: [] });
  else log.push({ text: input.text, values: [...(input.values ?? [])] });
}

/** A pool whose `query` (and its clients' `query`) note every statement before sending it. */
function capturingPool(pool: pg.Pool, log: Recorded[]): PostgresPool {
  const wrapClient = (client: PostgresPoolClient): PostgresPoolClient =>
    new Proxy(client, {
      get: (target, property, receiver) =>
        property === "query"
          ? (input: QueryInput) => {
              record(log, input);
              return target.query(input);
            }
          : Reflect.get(target, property, receiver),
    });
  return {
    query: (input) => {
      record(log, input);
      return pool.query(input);
    },
    connect: async () => wrapClient(await pool.connect()),
  } as PostgresPool;
}

/** Asks PostgreSQL what type each `$n` of a statement has (PREPARE, then pg_prepared_statements). */
async function parameterTypes(client: pg.PoolClient, text: string, count: number): Promise<string[]> {
  const unknown = Array.from({ length: count }, () => "unknown");
  if (count === 0) return [];
  try {
    await client.query(`PREPARE kopek_bench_probe AS ${text}`);
    const { rows } = await client.query<{ types: string[] }>(
      "SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'kopek_bench_probe'",
    );
    return rows[0]?.types ?? unknown;
  } catch {
    return unknown;
  } finally {
    await client.query("DEALLOCATE ALL");
  }
}

/** Migrates the database, then runs three create requests through createKopek over the adapter. */
export async function captureAdapterSql(url: string, project: BenchProject): Promise<Capture> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    await migrate(pool);
    const log: Recorded[] = [];
    const storage = createPostgresStorage({
      pool: capturingPool(pool, log),
      encryption: createTokenCipher({
        keys: [{ id: "bench", key: Buffer.alloc(32, 7) }],
        currentKeyId: "bench",
      }),
    });
    const now = new Date();
    const provider = { kind: "sandbox", storedMethodCharge: true } as const;
    await storage.saveProject({ id: project.id, name: "bench", provider, createdAt: now });
    const keyRecord = { id: randomUUID(), projectId: project.id, sha256: project.keyHash, createdAt: now };
    await storage.addApiKey({ ...keyRecord, revokedAt: null });
    const sandbox = createSandboxProvider();
    const kopek = createKopek({ storage, providerFor: () => sandbox, publicUrl: "http://127.0.0.1:3000" });
    const requests: Recorded[][] = [];
    for (let request = 0; request < 3; request++) {
      log.length = 0;
      const response = await kopek.handle({
        method: "POST",
        url: "/v1/invoices",
        headers: {
          authorization: `Bearer ${project.apiKey}`,
          // uuid-shaped, so the script can make a fresh one per transaction
          "idempotency-key": randomUUID(),
          "content-type": "application/json",
        },
        body: INVOICE_BODY,
      });
      if (response.status !== 201)
        throw new Error(`capture: create answered ${response.status}: ${response.body}`);
      requests.push([...log]);
    }
    const client = await pool.connect();
    try {
      const typed = async (statements: Recorded[]) => {
        const result: CapturedStatement[] = [];
        for (const { text, values } of statements)
          result.push({ text, values, types: await parameterTypes(client, text, values.length) });
        return result;
      };
      return {
        statements: await typed(requests[2] ?? []),
        previous: await typed(requests[1] ?? []),
        firstRequestRoundTrips: requests[0]?.length ?? 0,
      };
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}
