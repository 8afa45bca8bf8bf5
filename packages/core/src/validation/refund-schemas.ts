import { z } from "zod";
import { REFUND_STATUSES } from "../domain/model.js";
import type { RefundView } from "../domain/presenters.js";
import { EVENT_TYPES, type RefundEventType } from "../events/domain-event.js";
import { eventPayloadSchema } from "./event-schemas.js";
import { idSchema, listResponseSchema, timestampSchema } from "./response-schemas.js";
import { moneySchema } from "./schemas.js";

/** A Refund as the API answers it (API.md 10.6); tied to `presentRefund` below. */
export const refundResponseSchema = z
  .strictObject({
    id: idSchema,
    paymentId: idSchema.meta({ description: "The payment it refunds" }),
    status: z.enum(REFUND_STATUSES).meta({
      description:
        "pending until the provider decides (reconciled like payments); succeeded, or canceled when the provider refused it",
    }),
    amount: moneySchema,
    reason: z.string().nullable().meta({ description: "As requested; null when none was given" }),
    createdAt: timestampSchema,
    succeededAt: timestampSchema.nullable(),
  })
  .meta({ id: "Refund" });

export const refundListResponseSchema = listResponseSchema(refundResponseSchema, "RefundList", "refunds");

const REFUND_EVENT_TYPES = EVENT_TYPES.filter((t): t is RefundEventType => t.startsWith("refund."));

export const refundEventPayloadSchema = eventPayloadSchema(
  REFUND_EVENT_TYPES,
  refundResponseSchema,
  "RefundEvent",
);

export type RefundResponse = z.output<typeof refundResponseSchema>;
export type RefundListResponse = z.output<typeof refundListResponseSchema>;

// Compile-time tie: the schema and the presenter must be mutually assignable.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };
const tiedToPresenter: Same<Mutable<RefundView>, RefundResponse> = true;
void tiedToPresenter;
