import type { PaymentLookup, ProviderError, ProviderPayment } from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { z } from "zod";
import { providerErrorOf, providerPaymentOf } from "./payment-mapping.js";
import type { YooKassaClient } from "./yookassa-client.js";
import { paymentListSchema } from "./yookassa-schemas.js";

/** How long before Kopek recorded the payment YooKassa's clock may say it was made. */
export const LOOKUP_CLOCK_SKEW_MS = 5 * 60_000;
/**
 * How long after Kopek recorded it the payment may have been made: the call follows the record at once,
 * and its retries (with the same key) last seconds, so three hours leave a wide margin and keep the
 * window small enough to list.
 */
export const LOOKUP_WINDOW_MS = 3 * 60 * 60_000;
// yookassa.ru/developers/using-api/lists: `limit` is 1 to 100 (default 10).
const PAGE_SIZE = 100;
/** At most this many pages (of PAGE_SIZE payments) are read; a busier window is no answer, never a "none". */
export const LOOKUP_MAX_PAGES = 10;

const failed = (message: string): ProviderError => ({ code: "failed", message });

/**
 * The payment made for Kopek's `paymentId`, found by listing the shop's payments created around the time
 * Kopek recorded it. YooKassa finds no payment by its `Idempotence-Key` and searches by `metadata` only
 * for payouts, so the list is read (`GET /payments` with `created_at.gte` / `created_at.lte`, newest first,
 * `cursor` = the previous page's `next_cursor`: yookassa.ru/developers/using-api/lists and
 * yookassa.ru/developers/api#get_payments_list) and each payment's `metadata.kopekPaymentId`, which
 * `createPayment` and `chargeStoredMethod` send, is compared. Null only when the whole window was read.
 */
export function findPaymentByKey(
  client: YooKassaClient,
  lookup: PaymentLookup,
): ResultAsync<ProviderPayment | null, ProviderError> {
  const recorded = lookup.createdAt.getTime();
  const window = {
    "created_at.gte": new Date(recorded - LOOKUP_CLOCK_SKEW_MS).toISOString(),
    "created_at.lte": new Date(recorded + LOOKUP_WINDOW_MS).toISOString(),
    limit: String(PAGE_SIZE),
  };

  const page = (cursor: string | null, read: number): ResultAsync<ProviderPayment | null, ProviderError> => {
    const query = new URLSearchParams(cursor === null ? window : { ...window, cursor });
    // Read as any JSON and checked here: a list YooKassa did answer, but not as documented, is `failed`.
    return client
      .call({ method: "GET", path: `/payments?${query}`, schema: z.unknown() })
      .mapErr(providerErrorOf)
      .andThen((answer) => {
        const list = paymentListSchema.safeParse(answer);
        if (!list.success) return errAsync(failed("YooKassa GET /payments: a list of unexpected shape"));
        const made = list.data.items.find((payment) => payment.metadata?.kopekPaymentId === lookup.paymentId);
        if (made !== undefined) return okAsync(providerPaymentOf(made));
        const next = list.data.next_cursor;
        if (next === undefined) return okAsync(null);
        if (read + 1 >= LOOKUP_MAX_PAGES) {
          return errAsync(
            failed(
              `YooKassa: more than ${LOOKUP_MAX_PAGES * PAGE_SIZE} payments around ${lookup.createdAt.toISOString()}; not looked through`,
            ),
          );
        }
        return page(next, read + 1);
      });
  };
  return page(null, 0);
}
