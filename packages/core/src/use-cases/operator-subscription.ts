import { err, ok, type Result } from "neverthrow";
import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import type { KopekError } from "../domain/errors.js";
import type { Subscription } from "../domain/model.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Storage } from "../ports/storage.js";
import { fromStorageError } from "./execution.js";
import { changeSubscription, type SubscriptionChange } from "./subscription-changes.js";

export interface OperatorSubscriptionOptions {
  readonly storage: Storage;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
}

/** How often a change that lost a race to another write (a renewal) reads again and retries. */
const ATTEMPTS = 5;

/**
 * A change an operator makes outside the API (`kopek subscriptions cancel`): the same rules and events
 * as the API's (`changeSubscription`), on a subscription of the given project, version-checked.
 */
export async function changeSubscriptionAsOperator(
  options: OperatorSubscriptionOptions,
  projectId: string,
  subscriptionId: string,
  change: SubscriptionChange,
): Promise<Result<Subscription, KopekError>> {
  const { storage } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const found = await storage.findSubscription(projectId, subscriptionId);
    if (found.isErr()) return err(fromStorageError(found.error));
    const current = found.value;
    if (current === null) return err({ code: "not_found" });
    const changed = changeSubscription(current, change, clock.now(), ids);
    if (changed.isErr()) return err(changed.error);
    const { subscription, events } = changed.value;
    if (subscription === current) return ok(current);
    const saved = await storage.saveSubscription(subscription, events, []);
    if (saved.isOk()) return ok(subscription);
    if (saved.error.code !== "conflict") return err(fromStorageError(saved.error));
  }
  return err({ code: "internal_error", cause: new Error("the subscription kept changing; try again") });
}
