import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import type { Project } from "../domain/project.js";
import { systemClock } from "../ports/clock.js";
import type { MoneyRecordCounts, RemovedProjectRows } from "../ports/project-deletion-storage.js";
import { keyIsLive } from "../ports/project-storage.js";
import { eraseCustomer } from "./customers.js";
import { fromStorageError } from "./execution.js";
import { type OperatorExecutionOptions, runAsOperator } from "./operator-execution.js";
import { changeSubscriptionAsOperator } from "./operator-subscription.js";

/** What `--force` did to a project that keeps its money records (API.md 11.1). */
export interface ErasedProjectData {
  readonly apiKeysRevoked: number;
  readonly webhookEndpointsRemoved: number;
  readonly subscriptionsCanceled: number;
  readonly customersErased: number;
}

export type ProjectDeletionOutcome =
  /** It held no money record: gone, with everything it had. */
  | { readonly kind: "deleted"; readonly project: Project; readonly removed: RemovedProjectRows }
  /** It holds money records and `force` was not given: nothing changed. */
  | { readonly kind: "refused"; readonly project: Project; readonly money: MoneyRecordCounts }
  /** `force`: kept for its money records, marked deleted at `deletedAt`, the rest erased. */
  | {
      readonly kind: "erased";
      /** As it was found, before this run (`deletedAt` set when an earlier run marked it). */
      readonly project: Project;
      readonly money: MoneyRecordCounts;
      readonly deletedAt: Date;
      readonly erased: ErasedProjectData;
    };

/** Each page of subscriptions or customers walked through. */
const PAGE = 100;

/**
 * `kopek projects delete` (API.md 11.1). A project with no invoice, subscription, payment or refund is
 * deleted with everything it has, in one atomic step. One with money records is left as it is, unless
 * `force`: then it stays (its money records name it) but is marked deleted, so it takes no new key;
 * its API keys are revoked now and its webhook endpoints removed; every live subscription is canceled
 * now, with no refund, as `kopek subscriptions cancel` does; every customer is erased as `POST
 * /v1/customers/{id}/erase` erases one. Each step skips what an earlier run did, so a run cut short
 * is finished by running it again, and a second run changes nothing. Pending payments are still
 * reconciled: the money a provider took is recorded.
 */
export async function deleteProjectAsOperator(
  options: OperatorExecutionOptions,
  projectId: string,
  { force }: { readonly force: boolean },
): Promise<Result<ProjectDeletionOutcome, KopekError>> {
  const { storage } = options;
  const found = await storage.findProject(projectId);
  if (found.isErr()) return err(fromStorageError(found.error));
  const project = found.value;
  if (project === null) return err({ code: "not_found" });
  const deletion = await storage.deleteProject(projectId);
  if (deletion.isErr()) return err(fromStorageError(deletion.error));
  if (deletion.value.kind === "not_found") return err({ code: "not_found" });
  if (deletion.value.kind === "deleted")
    return ok({ kind: "deleted", project, removed: deletion.value.removed });
  const { money } = deletion.value;
  if (!force) return ok({ kind: "refused", project, money });
  // Marked first: from then on no key can be added, so the keys revoked next are all there will be.
  const now = (options.clock ?? systemClock).now();
  const marked = await storage.markProjectDeleted(projectId, now);
  if (marked.isErr()) return err(fromStorageError(marked.error));
  if (marked.value === null) return err({ code: "not_found" });
  const erased: Record<keyof ErasedProjectData, number> = {
    apiKeysRevoked: 0,
    webhookEndpointsRemoved: 0,
    subscriptionsCanceled: 0,
    customersErased: 0,
  };
  // Every step happens at that one moment: the subscriptions are canceled, the customers erased, then.
  const at: OperatorExecutionOptions = { ...options, clock: { now: () => new Date(now.getTime()) } };
  for (const [field, step] of STEPS) {
    const done = await step(at, projectId, now);
    if (done.isErr()) return err(done.error);
    erased[field] = done.value;
  }
  return ok({ kind: "erased", project, money, deletedAt: marked.value, erased });
}

type Step = (
  options: OperatorExecutionOptions,
  projectId: string,
  now: Date,
) => Promise<Result<number, KopekError>>;

/** Every key still working, or working until a rotation's grace ends, revoked now. */
const revokeKeys: Step = async ({ storage }, projectId, now) => {
  const keys = await storage.listApiKeys(projectId);
  if (keys.isErr()) return err(fromStorageError(keys.error));
  let revoked = 0;
  for (const key of keys.value.filter((k) => keyIsLive(k, now))) {
    const done = await storage.revokeApiKey(key.sha256, now);
    if (done.isErr()) return err(fromStorageError(done.error));
    revoked += 1;
  }
  return ok(revoked);
};

const removeEndpoints: Step = async ({ storage }, projectId) => {
  const endpoints = await storage.listWebhookEndpoints(projectId);
  if (endpoints.isErr()) return err(fromStorageError(endpoints.error));
  let removed = 0;
  for (const endpoint of endpoints.value) {
    const done = await storage.removeWebhookEndpoint(projectId, endpoint.id);
    if (done.isErr()) return err(fromStorageError(done.error));
    if (done.value) removed += 1;
  }
  return ok(removed);
};

/** Canceled now, as an operator's `subscriptions cancel` does: no charge again, no refund. */
const cancelSubscriptions: Step = async (options, projectId) => {
  let canceled = 0;
  for (let before: string | null = null; ; ) {
    const page = await options.storage.listSubscriptions(projectId, { limit: PAGE, before });
    if (page.isErr()) return err(fromStorageError(page.error));
    for (const subscription of page.value) {
      if (subscription.status === "canceled") continue;
      const done = await changeSubscriptionAsOperator(options, projectId, subscription.id, {
        kind: "cancel",
        at: "now",
      });
      // Canceled meanwhile (dunning ran out): nothing left to stop.
      if (done.isErr() && done.error.code !== "invalid_state") return err(done.error);
      if (done.isOk()) canceled += 1;
    }
    const last = page.value.at(-1);
    if (last === undefined || page.value.length < PAGE) return ok(canceled);
    before = last.id;
  }
};

/** Erased as `POST /v1/customers/{id}/erase` does, receipt contacts and stored history included. */
const eraseCustomers: Step = async (options, projectId) => {
  let erased = 0;
  for (let before: string | null = null; ; ) {
    const page = await options.storage.listCustomers(projectId, {
      limit: PAGE,
      before,
      externalId: null,
      email: null,
    });
    if (page.isErr()) return err(fromStorageError(page.error));
    for (const customer of page.value) {
      if (customer.erasedAt !== null) continue;
      const done = await runAsOperator(options, projectId, (execution) =>
        eraseCustomer(execution, customer.id),
      );
      if (done.isErr()) return err(done.error);
      erased += 1;
    }
    const last = page.value.at(-1);
    if (last === undefined || page.value.length < PAGE) return ok(erased);
    before = last.id;
  }
};

/** In this order: the API and webhooks stop first, then renewals, then the personal data goes. */
const STEPS: readonly (readonly [keyof ErasedProjectData, Step])[] = [
  ["apiKeysRevoked", revokeKeys],
  ["webhookEndpointsRemoved", removeEndpoints],
  ["subscriptionsCanceled", cancelSubscriptions],
  ["customersErased", eraseCustomers],
];
