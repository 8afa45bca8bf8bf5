import type { ProviderError, ProviderRefund, RefundRequest } from "@kopek/core";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { fromKopecks } from "./amount.js";
import { orderIdOf } from "./order-id.js";
import { providerErrorOf } from "./payment-mapping.js";
import { moneyFields } from "./receipt-mapping.js";
import { createBoundedMap } from "./single-flight.js";
import { parseRefundId, refundIdOf } from "./stored-ref.js";
import type { TBankClient } from "./tbank-client.js";
import type { createTBankOrders } from "./tbank-orders.js";
import { cancelSchema, type TBankState } from "./tbank-schemas.js";

const REFUNDED = new Set(["REFUNDED", "PARTIAL_REFUNDED"]);
const refuse = (message: string): ResultAsync<never, ProviderError> => errAsync({ code: "failed", message });

/** [T] GetState.Params: `Source` `qrsbp` is a payment made through SBP. */
const isSbp = (state: TBankState) =>
  state.Params?.some((param) => param.Key === "Source" && param.Value === "qrsbp") ?? false;

/**
 * Refunds by `Cancel` with an `Amount` ([T] Cancel). A card refund carries `ExternalRequestId` (the refund
 * key's OrderId-style id): T-Bank answers a repeat with the operation instead of refunding again, so the
 * exchange may repeat it. For SBP "Параметр не работает": a repeat refunds again, so an SBP `Cancel` is
 * sent once, and after a lost answer `GetState` tells whether it went through (the payment's status moved
 * from what it was before); it is never sent again for that key in this process. Nor by any other: an
 * ask that may repeat one another process (or this one before a restart) sent (`mayHaveBeenSent`) is
 * never sent; it is settled only when `GetState` shows the whole payment refunded by it (README, Refunds).
 */
export function createTBankRefunds(client: TBankClient, orders: ReturnType<typeof createTBankOrders>) {
  // An SBP refund's key → the payment's status before its Cancel, and its answer once known.
  const sbpRefunds = createBoundedMap<{ before: string; answer: ProviderRefund | null }>(10_000);

  function refundPayment(request: RefundRequest): ResultAsync<ProviderRefund, ProviderError> {
    // developer.tbank.ru/eacq/api/cancel: Cancel's Receipt: none for a full refund, the returned
    // items for a partial one — which core computed (RefundRequest.receipt), mapped as Init's is.
    const checked = moneyFields(request.money, request.receipt);
    if ("refused" in checked) return refuse(checked.refused);
    const { amount: kopecks, receipt } = checked;
    const money = { amount: String(kopecks), currency: "RUB" };
    const externalRequestId = orderIdOf(request.idempotencyKey);
    // Each refund by its own Cancel's answer: done (REFUNDED / PARTIAL_REFUNDED) or still REFUNDING.
    const answerOf = (paymentId: string, status: string): ProviderRefund => ({
      providerRefundId: refundIdOf(paymentId, kopecks, externalRequestId, REFUNDED.has(status)),
      providerPaymentId: paymentId,
      status: REFUNDED.has(status) ? "succeeded" : "pending",
      money,
    });
    const body = {
      PaymentId: request.providerPaymentId,
      Amount: kopecks,
      ExternalRequestId: externalRequestId,
      ...receipt,
    };

    // An SBP Cancel with no answer: it went through when the payment's status moved since.
    const wentThrough = (before: string) =>
      orders.getState(request.providerPaymentId).andThen((after) => {
        if (after.Status === before || !(REFUNDED.has(after.Status) || after.Status === "REFUNDING"))
          return errAsync<ProviderRefund, ProviderError>({
            code: "unavailable",
            message: `T-Bank SBP Cancel of ${after.PaymentId}: no answer, and GetState shows no refund; not sent again (ExternalRequestId does not work for SBP) — if it stays so, an operator must check the payment in T-Bank's dashboard`,
          });
        const answer = answerOf(after.PaymentId, after.Status);
        sbpRefunds.set(externalRequestId, { before, answer });
        return okAsync(answer);
      });

    // Only a refund of the whole payment can be read from GetState: REFUNDED with its amount. A part
    // leaves PARTIAL_REFUNDED (or REFUNDED, the last part) whether this refund or another made it.
    const sentElsewhere = (state: TBankState): ResultAsync<ProviderRefund, ProviderError> =>
      state.Status === "REFUNDED" && state.Amount === kopecks
        ? okAsync(answerOf(state.PaymentId, state.Status))
        : errAsync({
            code: "unavailable",
            message: `T-Bank SBP refund of ${state.PaymentId}: an earlier Cancel may have been sent (another process, or before a restart) and GetState (${state.Status}) cannot tell whether it went through; not sent again, as a repeated SBP Cancel refunds again — an operator must check the payment in T-Bank's dashboard`,
          });

    return orders.getState(request.providerPaymentId).andThen((state) => {
      if (!isSbp(state))
        return client
          .call("Cancel", body, cancelSchema)
          .mapErr(providerErrorOf)
          .map((answer) => answerOf(answer.PaymentId, answer.Status));
      const earlier = sbpRefunds.get(externalRequestId);
      if (earlier !== undefined)
        return earlier.answer === null ? wentThrough(earlier.before) : okAsync(earlier.answer);
      // Sent by another process, or before a restart, perhaps: what it did is not known here.
      if (request.mayHaveBeenSent === true) return sentElsewhere(state);
      sbpRefunds.set(externalRequestId, { before: state.Status, answer: null });
      return client
        .call("Cancel", body, cancelSchema, "once")
        .map((answer) => {
          const made = answerOf(answer.PaymentId, answer.Status);
          sbpRefunds.set(externalRequestId, { before: state.Status, answer: made });
          return made;
        })
        .orElse((failure) => {
          if (failure.kind === "unavailable") return wentThrough(state.Status);
          // Refused: nothing was refunded, so the key may be tried again.
          sbpRefunds.delete(externalRequestId);
          return errAsync(providerErrorOf(failure));
        });
    });
  }

  /**
   * A refund's status from its own Cancel's answer, kept in its id: one answered done is succeeded. One
   * answered REFUNDING (or an id of the earlier form, without the answer) is read from the payment's
   * status: T-Bank keeps no refund object to ask about (README).
   */
  function getRefund(providerRefundId: string): ResultAsync<ProviderRefund, ProviderError> {
    const parsed = parseRefundId(providerRefundId);
    const money = parsed === null ? null : fromKopecks(parsed.kopecks);
    if (parsed === null || money === null) return refuse("T-Bank adapter: not a refund id this adapter made");
    if (parsed.done === true)
      return okAsync({ providerRefundId, providerPaymentId: parsed.paymentId, status: "succeeded", money });
    return orders.getState(parsed.paymentId).map((state) => ({
      providerRefundId,
      providerPaymentId: state.PaymentId,
      status: REFUNDED.has(state.Status)
        ? "succeeded"
        : state.Status === "REFUNDING"
          ? "pending"
          : "canceled",
      money,
    }));
  }

  return { refundPayment, getRefund };
}
