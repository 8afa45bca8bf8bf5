import { err, ok, type Result } from "neverthrow";
import type { Payment, Refund } from "../domain/model.js";
import type { Receipt, ReceiptItem } from "../domain/receipt.js";
import { itemTotal } from "../domain/receipt-total.js";
import type { Storage } from "../ports/storage.js";
import type { StorageError } from "../ports/storage-error.js";

/** Refunds read per page when adding up what earlier refunds of a payment covered. */
const PAGE = 100;

/**
 * The items a partial refund returns (API.md 10.7; docs/api.md "Refund receipts"): the payment's
 * receipt items laid end to end, each as long as its total in minor units, cut at the part from
 * `refundedBefore` to `refundedBefore + amount`. An item wholly inside is kept as it is; an item cut
 * keeps its description, VAT code, subject and mode, with the part refunded as a whole number of its
 * units when it is one, else as one unit priced at that part. The items come to `amount` exactly; the
 * customer and tax system are the payment's. `refundedBefore + amount` is at most the receipt's total.
 */
export function partialRefundReceipt(receipt: Receipt, refundedBefore: bigint, amount: bigint): Receipt {
  const items: ReceiptItem[] = [];
  const end = refundedBefore + amount;
  let at = 0n;
  for (const item of receipt.items) {
    const line = itemTotal(item.quantity, item.amount.amount);
    // Receipts are accepted only with whole item totals (receipt-total.ts).
    const total = line.whole ? line.minorUnits : line.thousandths / 1000n;
    const from = at > refundedBefore ? at : refundedBefore;
    const to = at + total < end ? at + total : end;
    if (to > from) items.push(to - from === total ? item : cutItem(item, to - from));
    at += total;
  }
  return { ...receipt, items };
}

function cutItem(item: ReceiptItem, part: bigint): ReceiptItem {
  const unit = BigInt(item.amount.amount);
  if (unit > 0n && part % unit === 0n) return { ...item, quantity: (part / unit).toString() };
  return { ...item, quantity: "1", amount: { ...item.amount, amount: part.toString() } };
}

/**
 * The receipt sent with a refund to the provider: null for a refund of the whole payment (providers
 * register that one from the payment's own receipt; YooKassa: "do not pass receipt") or of a payment
 * sent without one; else the part of the payment's receipt (its invoice's, or its subscription's)
 * the refund returns, after what the payment's earlier refunds (lower ids, not canceled) returned.
 */
export async function refundReceiptFor(
  storage: Storage,
  refund: Refund,
  payment: Payment,
): Promise<Result<Receipt | null, StorageError>> {
  if (refund.amount.amount === payment.amount.amount) return ok(null);
  const owner =
    payment.invoiceId !== null
      ? await storage.findInvoice(payment.projectId, payment.invoiceId)
      : payment.subscriptionId !== null
        ? await storage.findSubscription(payment.projectId, payment.subscriptionId)
        : null;
  if (owner === null) return ok(null);
  if (owner.isErr()) return err(owner.error);
  const receipt = owner.value?.receipt ?? null;
  if (receipt === null) return ok(null);
  let before = 0n;
  let cursor: string | null = refund.id;
  while (cursor !== null) {
    const page = await storage.listRefunds(payment.projectId, {
      paymentId: payment.id,
      status: null,
      limit: PAGE,
      before: cursor,
    });
    if (page.isErr()) return err(page.error);
    for (const earlier of page.value)
      if (earlier.status !== "canceled") before += BigInt(earlier.amount.amount);
    cursor = page.value.length === PAGE ? (page.value[PAGE - 1]?.id ?? null) : null;
  }
  // Never past the receipt's end, whatever refunds were canceled or made meanwhile.
  const amount = BigInt(refund.amount.amount);
  const room = BigInt(payment.amount.amount) - amount;
  return ok(partialRefundReceipt(receipt, before < room ? before : room, amount));
}
