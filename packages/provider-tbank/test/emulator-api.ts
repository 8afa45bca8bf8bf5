import { hasValidToken } from "../src/token.js";
import type { EmulatedPayment, EmulatorBooks } from "./emulator-books.js";
import type { EmulatorCardBindings } from "./emulator-cards.js";
import { dataOf, initiatorRefusal, mismatchedInitiator } from "./emulator-initiator.js";
import { cancelReceiptRefusal, receiptRefusal } from "./emulator-receipt.js";
import {
  dataRefusal,
  dueDateRefusal,
  missing,
  notFound,
  outage,
  refusal,
  SBP_MAX_KOPECKS,
  SBP_MIN_KOPECKS,
  sbpAmountRefusal,
  sizeRefusal,
  unmatched,
  wrongState,
} from "./emulator-refusals.js";
import type { EmulatorAccounts } from "./emulator-sbp.js";

// The emulated API's methods, apart from HTTP: one answer per request. Shapes from
// developer.tbank.ru/eacq/api/{init,get-state,check-order,charge,cancel,get-qr} (cards and customers:
// emulator-cards.ts, SBP bindings: emulator-sbp.ts); error
// codes where the documentation read names none are the emulator's own (README).

export { refusal };

export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

type Body = Record<string, unknown>;

const ok = (body: Body): Answer => ({ status: 200, body: { Success: true, ErrorCode: "0", ...body } });

const isString = (value: unknown, max: number): value is string =>
  typeof value === "string" && value.length > 0 && Array.from(value).length <= max;

export interface EmulatorApi {
  answer(method: string, body: Body): Answer;
}

export function createEmulatorApi(
  books: EmulatorBooks,
  terminal: {
    readonly terminalKey: string;
    readonly password: string;
    readonly unknownOrder?: "error" | "empty";
    readonly sbpRefunds?: "done" | "refunding";
  },
  urls: {
    readonly checkout: (id: string) => string;
    readonly qr: (id: string) => string;
    readonly binding: (requestKey: string) => string;
    readonly addCard: (requestKey: string) => string;
  },
  accounts: EmulatorAccounts,
  cards: EmulatorCardBindings,
): EmulatorApi {
  const stateOf = (payment: EmulatedPayment) => ({
    TerminalKey: terminal.terminalKey,
    PaymentId: payment.PaymentId,
    OrderId: payment.OrderId,
    Amount: payment.Amount,
    Status: payment.Status,
  });

  function init(body: Body): Answer {
    const { Amount, OrderId, Description, CustomerKey, Recurrent } = body;
    // [T] Init_FULL: Amount in kopecks, at most 10 digits; OrderId ≤ 36; Description ≤ 140; CustomerKey ≤ 36,
    // required with Recurrent; the error table's codes for each.
    if (Amount === undefined) return missing("Amount");
    if (typeof Amount !== "number" || !Number.isSafeInteger(Amount) || String(Amount).length > 10)
      return refusal("240", "Поле Amount числовое значение должно укладываться в формат", "Amount");
    if (Amount <= 0) return refusal("251", "Неверная сумма. Сумма должна быть больше или равна 1 копеек");
    if (OrderId === undefined) return missing("OrderId");
    if (!isString(OrderId, 36)) return sizeRefusal("212", "OrderId");
    if (Description !== undefined && !isString(Description, 140)) return sizeRefusal("213", "Description");
    if (CustomerKey !== undefined && !isString(CustomerKey, 36)) return sizeRefusal("216", "CustomerKey");
    if (Recurrent !== undefined && Recurrent !== "Y") return unmatched("Recurrent");
    if (Recurrent === "Y" && CustomerKey === undefined && String(dataOf(body).QR) !== "true")
      return missing("CustomerKey");
    for (const field of ["SuccessURL", "FailURL", "NotificationURL"]) {
      const url = body[field];
      if (url !== undefined && (typeof url !== "string" || !/^https?:\/\//.test(url)))
        return unmatched(field);
    }
    const dataRefused =
      dataRefusal(body.DATA) ??
      initiatorRefusal(dataOf(body), Recurrent === "Y") ??
      dueDateRefusal(body.RedirectDueDate);
    if (dataRefused !== null) return dataRefused;
    const receiptRefused = body.Receipt === undefined ? null : receiptRefusal(body.Receipt, Amount);
    if (receiptRefused !== null) return receiptRefused;
    // [T] CheckOrder: "OrderId … Не является уникальным идентификатором": an order may hold several payments.
    const payment: EmulatedPayment = {
      PaymentId: books.newId(),
      OrderId,
      Amount,
      Status: "NEW",
      Description: typeof Description === "string" ? Description : null,
      SuccessURL: typeof body.SuccessURL === "string" ? body.SuccessURL : null,
      FailURL: typeof body.FailURL === "string" ? body.FailURL : null,
      NotificationURL: typeof body.NotificationURL === "string" ? body.NotificationURL : null,
      CustomerKey: typeof CustomerKey === "string" ? CustomerKey : null,
      Recurrent: Recurrent === "Y",
      Receipt: body.Receipt === undefined ? null : (body.Receipt as Record<string, unknown>),
      rebilled: false,
      Data: typeof body.DATA === "object" ? (body.DATA as Record<string, unknown>) : null,
      RedirectDueDate: typeof body.RedirectDueDate === "string" ? body.RedirectDueDate : null,
      refunded: 0,
      refunds: new Map(),
      pan: null,
      rebillId: null,
      settleOnRead: false,
      refundingTo: null,
      sbp: false,
    };
    books.payments.set(payment.PaymentId, payment);
    return ok({ ...stateOf(payment), PaymentURL: urls.checkout(payment.PaymentId) });
  }

  function charge(payment: EmulatedPayment, rebillId: unknown): Answer {
    const card =
      typeof rebillId === "string" || typeof rebillId === "number"
        ? books.cards.get(String(rebillId))
        : undefined;
    if (card === undefined) return refusal("104", "Ошибка выполения рекуррента", "RebillId");
    if (card.outcome === "unavailable") return outage();
    if (payment.Status !== "NEW") return wrongState();
    // [T] Charge: RebillId is "not null" only for OperationInitiatorType 2, R, I; 0 and 1 are 1126.
    const initiator = payment.Data?.OperationInitiatorType;
    if (initiator === "0" || initiator === "1") return mismatchedInitiator();
    payment.pan = card.Pan;
    payment.rebillId = card.RebillId;
    payment.rebilled = true;
    const { outcome } = card;
    if (typeof outcome === "object") {
      books.move(payment, "REJECTED", outcome.decline);
      return {
        status: 200,
        body: { ...stateOf(payment), Success: false, ErrorCode: "1051", Message: outcome.decline },
      };
    }
    if (outcome === "succeeded") {
      books.move(payment, "AUTHORIZED");
      books.move(payment, "CONFIRMED");
    } else {
      payment.Status = "AUTHORIZING";
      payment.settleOnRead = outcome === "pending-until-read";
    }
    return ok(stateOf(payment));
  }

  function cancel(payment: EmulatedPayment, body: Body): Answer {
    const { Amount, ExternalRequestId, Receipt } = body;
    // [T] Cancel.ExternalRequestId: a repeat answers the operation's state instead of refunding again,
    // but "Параметр не работает для операций по СБП": an SBP payment is refunded again.
    const key =
      typeof ExternalRequestId === "string" && ExternalRequestId !== "" && !payment.sbp
        ? ExternalRequestId
        : null;
    const earlier = key === null ? undefined : payment.refunds.get(key);
    if (earlier !== undefined) return ok({ ...earlier, Status: payment.Status });
    const original = payment.Amount - payment.refunded;
    // [T] Cancel-2 types PaymentId a number (Init and GetState a string).
    const answerOf = (fields: Body) => ({
      ...stateOf(payment),
      PaymentId: Number(payment.PaymentId),
      ...fields,
    });
    if (["NEW", "FORM_SHOWED"].includes(payment.Status)) {
      books.move(payment, "CANCELED");
      return ok(answerOf({ OriginalAmount: payment.Amount, NewAmount: 0 }));
    }
    if (!["CONFIRMED", "PARTIAL_REFUNDED"].includes(payment.Status)) return wrongState();
    if (Amount !== undefined && (typeof Amount !== "number" || !Number.isSafeInteger(Amount) || Amount <= 0))
      return refusal("326", "Неверный amount");
    const amount = typeof Amount === "number" ? Amount : original;
    if (amount > original) return refusal("330", "Сумма в запросе больше чем в оригинальной транзакции");
    const receiptRefused = cancelReceiptRefusal(payment, amount, Receipt);
    if (receiptRefused !== null) return receiptRefused;
    payment.refunded += amount;
    const done = payment.refunded === payment.Amount ? "REFUNDED" : "PARTIAL_REFUNDED";
    // [T]'s status REFUNDING: an SBP refund the payer's bank has not yet made; done when next read.
    const refunding = payment.sbp && terminal.sbpRefunds === "refunding";
    payment.refundingTo = refunding ? done : null;
    books.move(payment, refunding ? "REFUNDING" : done);
    books.refunds.push({
      PaymentId: payment.PaymentId,
      Amount: amount,
      Status: payment.Status,
      Receipt: Receipt === undefined ? null : (Receipt as Record<string, unknown>),
    });
    const answer = answerOf({
      OriginalAmount: original,
      NewAmount: original - amount,
      ...(key === null ? {} : { ExternalRequestId: key }),
    });
    if (key !== null) payment.refunds.set(key, answer);
    return ok(answer);
  }

  function paymentOf(body: Body, read = false): EmulatedPayment | undefined {
    const id = body.PaymentId;
    if (typeof id !== "string" && typeof id !== "number") return undefined;
    return read ? books.read(String(id)) : books.payments.get(String(id));
  }

  return {
    answer(method, body) {
      if (body.TerminalKey !== terminal.terminalKey || !hasValidToken(body, terminal.password))
        return refusal("204", "Неверный токен. Проверьте пару TerminalKey/SecretKey.");
      switch (method) {
        case "Init":
          return init(body);
        case "GetState": {
          const payment = paymentOf(body, true);
          if (payment === undefined) return notFound();
          // [T] GetState.Params (Items_Params): the way it was paid, Source qrsbp for SBP, cards for a card.
          const source = payment.sbp ? "qrsbp" : "cards";
          const Params = [
            { Key: "Route", Value: "ACQ" },
            { Key: "Source", Value: source },
          ];
          return ok({ ...stateOf(payment), Params });
        }
        case "CheckOrder": {
          if (!isString(body.OrderId, 36)) return sizeRefusal("212", "OrderId");
          // An order the terminal never saw: error 335 of the OpenAPI document's error table ("OrderId
          // {value} не найден для TerminalKey {value}"), or, as `unknownOrder: "empty"`, an empty Payments.
          if (books.paymentsOf(body.OrderId).length === 0 && terminal.unknownOrder !== "empty")
            return refusal(
              "335",
              `OrderId ${body.OrderId} не найден для TerminalKey ${terminal.terminalKey}`,
            );
          // Each payment as the OpenAPI document types it (PaymentsCheckOrder): `Success` a string, `ErrorCode` a number.
          const payments = books.paymentsOf(body.OrderId).map((payment) => ({
            PaymentId: payment.PaymentId,
            Amount: payment.Amount,
            Status: payment.Status,
            Success: "true",
            ErrorCode: 0,
            Message: "None",
          }));
          return ok({ TerminalKey: terminal.terminalKey, OrderId: body.OrderId, Payments: payments });
        }
        case "Charge": {
          const payment = paymentOf(body);
          return payment === undefined ? notFound() : charge(payment, body.RebillId);
        }
        case "Cancel": {
          const payment = paymentOf(body);
          return payment === undefined ? notFound() : cancel(payment, body);
        }
        case "GetQr": {
          const payment = paymentOf(body);
          if (payment === undefined) return notFound();
          if (payment.Status !== "NEW") return wrongState();
          if (payment.Amount < SBP_MIN_KOPECKS || payment.Amount > SBP_MAX_KOPECKS) return sbpAmountRefusal();
          payment.sbp = true;
          const image = body.DataType === "IMAGE";
          const data = image
            ? `<svg xmlns="http://www.w3.org/2000/svg"><text>${urls.qr(payment.PaymentId)}</text></svg>`
            : urls.qr(payment.PaymentId);
          return ok({
            TerminalKey: terminal.terminalKey,
            OrderId: payment.OrderId,
            // [T] QrResponse_FULL types PaymentId a number.
            PaymentId: Number(payment.PaymentId),
            Data: data,
          });
        }
        default:
          return (
            accounts.answer(method, body, urls.binding) ??
            cards.answer(method, body, urls.addCard) ?? {
              status: 404,
              body: { Success: false, ErrorCode: "1", Message: `No such method: ${method}` },
            }
          );
      }
    },
  };
}
