import {
  type ClaimOutcome,
  type IdempotencyClaim,
  type IdempotencyCompletion,
  type IdempotencyStorage,
  refusedResource,
} from "@kopek/core";
import { type CreateBatchOptions, createOnceMethod } from "./create-once.js";
import { LOOK_UP_KEY, type LookUpRow } from "./create-once-sql.js";
import { CLAIM, type ClaimRow, COMPLETE, DISCOVER_EXPIRED_KEYS, PURGE, RELEASE } from "./idempotency-sql.js";
import { invoiceValues } from "./invoice-columns.js";
import { eventsParameter } from "./outbox-rows.js";
import { withOutbox } from "./outbox-sql.js";
import { writePayments } from "./payment-storage.js";
import { claimByProject } from "./project-claims.js";
import {
  COMPLETE_REPLACING_INVOICE,
  COMPLETE_REPLACING_SUBSCRIPTION,
  COMPLETE_WITH_INVOICE,
  COMPLETE_WITH_SUBSCRIPTION,
  SUBSCRIPTION_OF_INVOICE,
} from "./resource-sql.js";
import { existingRecordOf, subscriptionValues } from "./rows.js";
import type { Query, SqlContext } from "./sql-context.js";
import { conflict, leaseLost } from "./storage-errors.js";
import type { TokenCipher } from "./token-cipher.js";

/** Idempotency records: claims and completions, one-step creates, lookups, the purge. */
export function idempotencyStorage(
  sql: SqlContext,
  createBatches: CreateBatchOptions | false | undefined,
): IdempotencyStorage {
  const { query, run, fail, cipher, maxAttempts, transaction } = sql;

  async function claimOnce(claim: IdempotencyClaim): Promise<ClaimOutcome | null> {
    const { rows } = await query<ClaimRow>("claim", CLAIM, [
      claim.projectId,
      claim.key,
      claim.fingerprint,
      claim.recordId,
      claim.leaseToken,
      claim.leaseExpiresAt,
      claim.expiresAt,
      claim.now,
      claim.apiKeyId,
    ]);
    const row = rows[0];
    if (row === undefined) return null;
    if (row.outcome === "key_revoked") return { kind: "key_revoked" };
    if (row.outcome === "claimed")
      return { kind: "claimed", recordId: row.record_id, takenOver: row.taken_over };
    return { kind: "existing", record: existingRecordOf(row) };
  }

  return {
    createOnce: createOnceMethod(sql, createBatches),

    claimIdempotencyKey: (claim) =>
      run("claimIdempotencyKey", async () => {
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          const outcome = await claimOnce(claim);
          // No row: the key changed after the statement's snapshot was taken; a new one will see it.
          if (outcome !== null) return outcome;
        }
        return fail({
          code: "storage_failed",
          message: `storage-postgres: claimIdempotencyKey kept racing concurrent changes (${maxAttempts} attempts)`,
        });
      }),

    completeIdempotencyKey: (completion) =>
      run("completeIdempotencyKey", async () => {
        const refused = refusedResource("storage-postgres", completion.resource);
        if (refused !== null) return fail(refused);
        const complete = async (q: Query) => {
          const [name, text, values] = completionStatement(completion, cipher);
          const { rows } = await q<{ completed: number; leased?: number }>(name, text, values);
          const row = rows[0];
          if (row?.completed === 1) {
            // The payments commit with the completion or, not all written, roll it back.
            if (await writePayments(q, completion.payments)) return;
            return fail(conflict("completeIdempotencyKey", completion));
          }
          // Without a resource there is no `leased` column: not completed means the lease was lost.
          if (row?.leased !== 1) return fail(leaseLost(completion.projectId));
          // The statement wrote nothing: another subscription took the invoice first (API.md 10.5).
          if (await invoiceTaken(q, completion))
            return fail({
              code: "duplicate",
              message: "storage-postgres: the invoice already backs a subscription",
            });
          return fail(conflict("completeIdempotencyKey", completion));
        };
        const payments = completion.resource === null ? [] : completion.payments;
        await (payments.length === 0 ? complete(query) : transaction(complete));
      }),

    releaseIdempotencyKey: (release) =>
      run("releaseIdempotencyKey", async () => {
        await query("release", RELEASE, [release.projectId, release.key, release.leaseToken, release.now]);
      }),

    findIdempotencyRecord: (lookup) =>
      run("findIdempotencyRecord", async () => {
        const { rows } = await query<LookUpRow>("look_up_key", LOOK_UP_KEY, [
          lookup.projectId,
          lookup.key,
          lookup.now,
          lookup.apiKeyId,
        ]);
        const row = rows[0];
        if (row === undefined) return { kind: "free" } as const;
        if (row.outcome === "key_revoked" || row.record === null) return { kind: "key_revoked" } as const;
        return { kind: "existing", record: existingRecordOf(row.record) } as const;
      }),

    // A lookup is a round trip: the write's own statement answers what the key holds instead.
    lookupsAreLocal: false,

    purgeExpiredIdempotencyKeys: (now, limit) =>
      run("purgeExpiredIdempotencyKeys", async () => {
        const purged = await claimByProject(sql, {
          name: "expired_keys",
          discover: DISCOVER_EXPIRED_KEYS,
          claim: PURGE,
          values: [],
          now,
          limit,
          toResult: () => 1,
        });
        return purged.length;
      }),
  };
}

/**
 * The one statement of a completion: its name, text and values. With a resource, version 1 inserts
 * it and version n replaces version n−1; the row it returns tells a lost lease from a conflict. With
 * events, the same statement plus the outbox CTEs, guarded by the resource write.
 */
function completionStatement(
  completion: IdempotencyCompletion,
  cipher: TokenCipher,
): [string, string, unknown[]] {
  const [name, text, values] = resourceCompletion(completion, cipher);
  if (completion.resource === null || completion.events.length === 0) return [name, text, values];
  const param = values.length + 1;
  return [
    `${name}_events`,
    // Every completion's $1 is its project.
    withOutbox(text, param, 1, "resource"),
    [...values, eventsParameter(completion.events)],
  ];
}

function resourceCompletion(
  completion: IdempotencyCompletion,
  cipher: TokenCipher,
): [string, string, unknown[]] {
  const { projectId, key, leaseToken, response, resource } = completion;
  const record = [
    projectId,
    key,
    leaseToken,
    response.status,
    JSON.stringify(response.headers),
    response.body,
  ];
  if (resource === null) return ["complete", COMPLETE, record];
  if (resource.kind === "subscription") {
    const values = [...record, ...subscriptionValues(resource.subscription, cipher)];
    return resource.subscription.version === 1
      ? ["complete_subscription", COMPLETE_WITH_SUBSCRIPTION, values]
      : ["complete_subscription_replace", COMPLETE_REPLACING_SUBSCRIPTION, values];
  }
  const values = [...record, ...invoiceValues(resource.invoice, cipher)];
  return resource.invoice.version === 1
    ? ["complete_invoice", COMPLETE_WITH_INVOICE, values]
    : ["complete_invoice_replace", COMPLETE_REPLACING_INVOICE, values];
}

/** Whether a new subscription's invoice already backs another one of its project (the one rule per invoice). */
async function invoiceTaken(q: Query, completion: IdempotencyCompletion): Promise<boolean> {
  const resource = completion.resource;
  if (resource?.kind !== "subscription" || resource.subscription.version !== 1) return false;
  const { invoiceId, id } = resource.subscription;
  if (invoiceId === null) return false;
  const { rows } = await q("subscription_of_invoice", SUBSCRIPTION_OF_INVOICE, [
    completion.projectId,
    invoiceId,
    id,
  ]);
  return rows.length > 0;
}
