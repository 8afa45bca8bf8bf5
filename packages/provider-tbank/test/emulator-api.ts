import { hasValidToken } from "../src/token.js";
import type { EmulatedPayment, EmulatorBooks } from "./emulator-books.js";
import { receiptRefusal } from "./emulator-receipt.js";
import type { EmulatorAccounts } from "./emulator-sbp.js";

// The emulated API's methods, apart from HTTP: one answer per request. Shapes from
// developer.tbank.ru/eacq/api/{init,get-state,check-order,charge,cancel,get-qr,get-card-list}; error
// codes where the documentation read names none are the emulator's own (README).

export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

type Body = Record<string, unknown>;

const ok = (body: Body): Answer => ({ status: 200, body: { Success: true, ErrorCode: "0", ...body } });
export const refusal = (code: string, message: string, details?: string): Answer => ({
  status: 200,
  body: {
    Success: false,
    ErrorCode: code,
    Message: message,
    ...(details === undefined ? {} : { Details: details }),
  },
});
const invalid = (details: string) => refusal("9", "Неверные параметры", details);
// The gist quoted in README shows this answer to a Charge of a payment not in a chargeable state.
const wrongState = () =>
  refusal("4", "Запрашиваемое состояние транзакции является неверным.", "Изменение статуса недопустимо.");
const notFound = () => refusal("7", "Платеж не найден");
const outage = (): Answer => ({
  status: 500,
  body: { Success: false, ErrorCode: "9999", Message: "Внутренняя ошибка" },
});

/**
 * Cancel's `Receipt` (developer.tbank.ru/eacq/api/cancel): "required if an online cash register
 * is connected" — the emulator takes a payment whose Init carried a Receipt as such a terminal — "not
 * passed for a full cancel", and "for a partial one, the items being cancelled": checked like Init's,
 * its items coming to the refunded amount.
 */
function cancelReceiptRefusal(payment: EmulatedPayment, amount: number, receipt: unknown): string | null {
  const whole = payment.refunded === 0 && amount === payment.Amount;
  if (whole) return receipt === undefined ? null : "Receipt не передается при полной отмене";
  if (receipt === undefined)
    return payment.Receipt === null ? null : "Receipt обязателен при частичной отмене: отменяемые товары";
  return receiptRefusal(receipt, amount);
}

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
  },
  urls: {
    readonly checkout: (id: string) => string;
    readonly qr: (id: string) => string;
    readonly binding: (requestKey: string) => string;
  },
  accounts: EmulatorAccounts,
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
    if (
      typeof Amount !== "number" ||
      !Number.isSafeInteger(Amount) ||
      Amount <= 0 ||
      String(Amount).length > 10
    )
      return invalid("Amount: целое число копеек, не больше 10 знаков");
    if (!isString(OrderId, 36)) return invalid("OrderId: строка до 36 символов");
    if (Description !== undefined && !isString(Description, 140))
      return invalid("Description: до 140 символов");
    if (CustomerKey !== undefined && !isString(CustomerKey, 36))
      return invalid("CustomerKey: до 36 символов");
    if (Recurrent !== undefined && Recurrent !== "Y") return invalid("Recurrent: Y");
    if (Recurrent === "Y" && CustomerKey === undefined)
      return invalid("CustomerKey обязателен при Recurrent=Y");
    for (const field of ["SuccessURL", "FailURL", "NotificationURL"]) {
      const url = body[field];
      if (url !== undefined && (typeof url !== "string" || !/^https?:\/\//.test(url)))
        return invalid(`${field}: URL`);
    }
    if (
      body.DATA !== undefined &&
      (typeof body.DATA !== "object" || body.DATA === null || Array.isArray(body.DATA))
    )
      return invalid("DATA: объект");
    const receiptRefused = body.Receipt === undefined ? null : receiptRefusal(body.Receipt, Amount);
    if (receiptRefused !== null) return invalid(receiptRefused);
    // The emulator's reading of "OrderId must be unique for each operation": a second payment of an order
    // is refused while one may still be paid or was paid.
    if (books.hasLivePayment(OrderId)) return refusal("8", "Заказ с таким OrderId уже существует");
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
      refunded: 0,
      refunds: new Map(),
      pan: null,
      rebillId: null,
      settleOnRead: false,
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
    if (card === undefined) return refusal("9", "Неверные параметры", "RebillId не найден");
    if (card.outcome === "unavailable") return outage();
    if (payment.Status !== "NEW") return wrongState();
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
    const key = typeof ExternalRequestId === "string" ? ExternalRequestId : null;
    const earlier = key === null ? undefined : payment.refunds.get(key);
    if (earlier !== undefined) return ok({ ...earlier, Status: payment.Status });
    const original = payment.Amount - payment.refunded;
    if (["NEW", "FORM_SHOWED"].includes(payment.Status)) {
      books.move(payment, "CANCELED");
      return ok({ ...stateOf(payment), OriginalAmount: payment.Amount, NewAmount: 0 });
    }
    if (!["CONFIRMED", "PARTIAL_REFUNDED"].includes(payment.Status)) return wrongState();
    if (Amount !== undefined && (typeof Amount !== "number" || !Number.isSafeInteger(Amount) || Amount <= 0))
      return invalid("Amount: целое число копеек");
    const amount = typeof Amount === "number" ? Amount : original;
    if (amount > original) return refusal("9", "Неверные параметры", "Сумма возврата больше остатка платежа");
    const receiptRefused = cancelReceiptRefusal(payment, amount, Receipt);
    if (receiptRefused !== null) return invalid(receiptRefused);
    payment.refunded += amount;
    books.move(payment, payment.refunded === payment.Amount ? "REFUNDED" : "PARTIAL_REFUNDED");
    books.refunds.push({
      PaymentId: payment.PaymentId,
      Amount: amount,
      Status: payment.Status,
      Receipt: Receipt === undefined ? null : (Receipt as Record<string, unknown>),
    });
    const answer = { ...stateOf(payment), OriginalAmount: original, NewAmount: original - amount };
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
          return payment === undefined ? notFound() : ok(stateOf(payment));
        }
        case "CheckOrder": {
          if (!isString(body.OrderId, 36)) return invalid("OrderId");
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
          payment.sbp = true;
          const image = body.DataType === "IMAGE";
          const data = image
            ? `<svg xmlns="http://www.w3.org/2000/svg"><text>${urls.qr(payment.PaymentId)}</text></svg>`
            : urls.qr(payment.PaymentId);
          return ok({
            TerminalKey: terminal.terminalKey,
            OrderId: payment.OrderId,
            PaymentId: payment.PaymentId,
            Data: data,
          });
        }
        case "GetCardList": {
          if (!isString(body.CustomerKey, 36)) return invalid("CustomerKey");
          const cards = [...books.cards.values()].filter((card) => card.customerKey === body.CustomerKey);
          if (cards.some((card) => card.outcome === "unavailable")) return outage();
          return {
            status: 200,
            body: cards.map((card) => ({
              CardId: card.CardId,
              Pan: card.Pan,
              Status: "A",
              RebillId: card.RebillId,
              CardType: 0,
              ExpDate: "1230",
            })),
          };
        }
        default:
          return (
            accounts.answer(method, body, urls.binding) ?? {
              status: 404,
              body: { Success: false, ErrorCode: "404", Message: `No such method: ${method}` },
            }
          );
      }
    },
  };
}
