import { err, ok, type Result } from "neverthrow";
import type { KopekError } from "../domain/errors.js";
import { METHOD_UPDATE_TTL_MS, type MethodUpdate } from "../domain/method-update.js";
import type { Subscription } from "../domain/model.js";
import { methodUpdatePagePath } from "../payments/page-paths.js";
import { chargeableLater } from "../ports/payment-provider.js";
import { type Execution, fromStorageError, type Outcome } from "./execution.js";

/**
 * POST /v1/subscriptions/{id}/method-update (API.md 11.5): a link, valid 24 hours, where the payer
 * saves a new method for this subscription. It replaces the subscription's earlier link (one link is
 * open at a time; an older one shows "expired"). Refused (409) for a subscription whose method can no
 * longer matter (canceled) or that has none yet (incomplete); 422 when the project's provider can save
 * no method in a form the project charges later. No event: the method changes only when the payer
 * saves one (`subscription.method_updated`). The link's id is the request's record; the subscription
 * with it is stored with the response in one version-checked step (a write in between runs it again).
 */
export async function createMethodUpdate(
  execution: Execution,
  _input: unknown,
  id: string,
): Promise<Result<Outcome, KopekError>> {
  const { storage, project, recordId, now } = execution;
  const found = await storage.findSubscription(project.id, id);
  if (found.isErr()) return err(fromStorageError(found.error));
  const current = found.value;
  if (current === null) return err({ code: "not_found" });
  const refused = refusal(execution, current);
  if (refused !== null) return err(refused);
  const update: MethodUpdate = {
    id: recordId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + METHOD_UPDATE_TTL_MS),
    attempts: 0,
    completedBy: null,
    completedAt: null,
    // A save the payer may still finish at the provider stays asked about (API.md 11.5): its method goes on.
    saves: current.methodUpdate?.saves.filter((save) => save.state === "pending") ?? [],
  };
  const next: Subscription = { ...current, methodUpdate: update, version: current.version + 1 };
  const path = methodUpdatePagePath(next.projectId, next.id, update.id);
  return ok({
    status: 201,
    resource: { kind: "subscription", subscription: next },
    body: { url: `${execution.publicUrl}${path}`, expiresAt: update.expiresAt.toISOString() },
    events: [],
  });
}

function refusal(execution: Execution, subscription: Subscription): KopekError | null {
  if (subscription.status === "canceled")
    return { code: "invalid_state", detail: "the subscription is canceled: it is never charged again" };
  if (subscription.status === "incomplete")
    return {
      code: "invalid_state",
      detail: "the subscription's first charge is still pending: its method is known once it is decided",
    };
  if (chargeableLater(execution.provider.capabilities).length === 0)
    return {
      code: "method_unavailable",
      detail: "the project's payment provider cannot save a method for later charges",
    };
  return null;
}
