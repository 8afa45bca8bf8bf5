import {
  cancelSubscriptionRequestSchema,
  createSubscriptionRequestSchema,
  methodUpdateResponseSchema,
  subscriptionListResponseSchema,
  subscriptionResponseSchema,
  updateSubscriptionRequestSchema,
} from "@kopek/core";
import { EXAMPLE_SUBSCRIPTION_REQUEST } from "./examples.js";
import { resourcePaths } from "./resource-paths.js";

/** The subscriptions' paths (API.md 5.3, 6, 11.2–11.5): what each operation does, as a client reads it. */
export function subscriptionPaths() {
  return resourcePaths({
    collection: "subscriptions",
    tag: "subscriptions",
    singular: "Subscription",
    resource: subscriptionResponseSchema,
    list: subscriptionListResponseSchema,
    listParameters: ["Limit", "Cursor", "CustomerId"],
    create: {
      summary: "Create a subscription: charge its first cycle, or take a paid invoice's payment as it",
      request: createSubscriptionRequestSchema,
      example: EXAMPLE_SUBSCRIPTION_REQUEST,
      extraErrors: ["payment_declined", "invoice_not_usable", "invoice_already_used", "customer_not_found"],
    },
    update: {
      summary: "Change a subscription",
      description:
        "`amount` and `period` apply from the next cycle (`nextChargeAt` stays; a new period re-anchors there), " +
        "only on an active subscription whose renewal is not due or under way (else 409 invalid_state); a " +
        "subscription with a receipt needs one that adds up to the new amount. `proration: charge_now` charges " +
        "the prorated difference of a raise at once, `(new − old) × remaining ÷ cycle length` on whole seconds, " +
        "rounded down, as a Payment of kind proration; declined, 402 and nothing changes; no answer, 503 and " +
        "the retry with the same key asks again. `cancelAtPeriodEnd: true` cancels it at the end of the paid " +
        "period (as cancel with `at: period_end`); `false` undoes that before `cancelAt`. A change is answered " +
        "with the subscription and sent as `subscription.updated` (its `data.previous` holds the fields that " +
        "changed, as they were); asking for what is already so changes nothing and sends no event. A canceled " +
        "subscription, or an undo after `cancelAt` passed, is 409 invalid_state.",
      request: updateSubscriptionRequestSchema,
      extraErrors: ["payment_declined", "method_unavailable", "provider_error", "provider_unavailable"],
    },
    cancel: {
      description:
        "Without a body, or `at: now`: a subscription not yet canceled ends now: `status` canceled, " +
        "`canceledAt` set, `cancelReason` requested; no further charge is attempted. `at: period_end`: it " +
        "stays active with `cancelAt` = `nextChargeAt` and `cancelAtPeriodEnd` true, is not charged then and " +
        "becomes canceled at that moment (`subscription.updated` now, `subscription.canceled` then); 409 " +
        "invalid_state for one past due (its period is unpaid), incomplete, or whose renewal is under way. " +
        "An already-canceled one is 409 invalid_state (the same Idempotency-Key replays the first answer).",
      request: cancelSubscriptionRequestSchema,
    },
    pause: {
      description:
        "An active subscription stays active with `pauseAt` = `nextChargeAt` (`subscription.updated`); then " +
        "nothing is charged and it becomes paused (`subscription.paused`). Asked again, or of a paused one, " +
        "nothing changes. 409 invalid_state for one not active, canceled at period end, or whose renewal is " +
        "under way.",
    },
    resume: {
      description:
        "Before `pauseAt`: only clears it (`subscription.updated`). A paused subscription is charged at once " +
        "for a new cycle, `cyclesStarted` + 1, its schedule re-anchored now (`subscription.resumed`); declined: " +
        "402 and it stays paused; no answer: 503, and the retry with the same Idempotency-Key continues the " +
        "same charge (the renewal worker settles it otherwise). 409 invalid_state for one neither paused nor " +
        "pausing.",
    },
    methodUpdate: {
      description:
        "A link (valid 24 hours) to Kopek's page where the payer saves a new method for this subscription " +
        "through the project's provider, with the smallest verification payment it takes, refunded at once. " +
        "On the provider's verified word the subscription's `method` and `methodMask` change " +
        "(`subscription.method_updated`) and a past_due one is charged for its overdue cycle at once; the " +
        "old method is never charged again. A new link replaces the subscription's earlier one. 409 " +
        "invalid_state for one canceled or incomplete; 422 method_unavailable when the provider can save " +
        "no method the project charges later.",
      response: methodUpdateResponseSchema,
    },
  });
}
