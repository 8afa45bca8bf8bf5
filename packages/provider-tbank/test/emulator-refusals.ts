import type { Answer } from "./emulator-api.js";

// The emulator's refusals, each with its code and message from [T]'s error table ("Коды ошибок",
// test/spec/openapi.json): test/spec-check.ts fails a test whose emulator answers a code not in it.

export const refusal = (code: string, message: string, details?: string): Answer => ({
  status: 200,
  body: {
    Success: false,
    ErrorCode: code,
    Message: message,
    ...(details === undefined ? {} : { Details: details }),
  },
});

/** 2: a required field is missing. */
export const missing = (field: string) => refusal("2", "Отсутствуют обязательные параметры", field);
/** 1: a value outside the list [T] gives for the field. */
export const unmatched = (field: string) => refusal("1", "Параметры не сопоставлены", field);
/** 255: no payment of that PaymentId. */
export const notFound = () => refusal("255", "Платеж не найден");
/** 4: the payment's status does not allow the operation (T-Bank's DEMO terminal answers Charge this way). */
export const wrongState = () =>
  refusal("4", "Не получится изменить статус платежа", "Изменение статуса недопустимо.");
/**
 * 3016: no QR for an SBP amount outside the range, by default 10 RUB to 1,000,000 RUB ([T] error table:
 * "Ошибка передается, если сумма операции по СБП не соответствует диапазону возможной суммы";
 * Init_FULL.Amount: "Минимальная сумма операции с помощью СБП составляет 10 руб.").
 */
export const sbpAmountRefusal = () =>
  refusal("3016", "Невозможно создать QR", "Сумма операции по СБП вне диапазона от 10 до 1 000 000 рублей.");
export const SBP_MIN_KOPECKS = 1_000;
export const SBP_MAX_KOPECKS = 100_000_000;
/** 9999: the emulated outage. */
export const outage = (): Answer => ({
  status: 500,
  body: { Success: false, ErrorCode: "9999", Message: "Внутренняя ошибка системы" },
});

/** A field's size outside [T]'s limits, by the table's code for it. */
export const sizeRefusal = (code: string, field: string) =>
  refusal(code, `Размер поля ${field} вне допустимых пределов`, field);

// Init's DATA ([T] Init_FULL.DATA): at most 20 pairs, a key of at most 20 characters, a value of at most 100.
const DATA_PAIRS_MAX = 20;
const DATA_KEY_MAX = 20;
const DATA_VALUE_MAX = 100;
// Keys [T] itself names for DATA though longer than 20: OperationInitiatorType (Common), notificationEnableSource.
const DOCUMENTED_LONG_KEYS = new Set(["OperationInitiatorType", "notificationEnableSource"]);

/** Why Init's `DATA` is refused (207, 208, 209 of [T]'s table), or null. */
export function dataRefusal(data: unknown): Answer | null {
  if (data === undefined) return null;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return unmatched("DATA");
  const pairs = Object.entries(data);
  if (pairs.length > DATA_PAIRS_MAX)
    return refusal("207", "Параметр DATA превышает максимально допустимый размер");
  for (const [key, value] of pairs) {
    if (Array.from(key).length > DATA_KEY_MAX && !DOCUMENTED_LONG_KEYS.has(key))
      return refusal(
        "208",
        "Наименование ключа из параметра DATA превышает максимально допустимый размер",
        key,
      );
    if (Array.from(String(value)).length > DATA_VALUE_MAX)
      return refusal("209", "Значение ключа из параметра DATA превышает максимально допустимый размер", key);
  }
  return null;
}

// [T] Init / AddAccountQr RedirectDueDate: "YYYY-MM-DDTHH24:MI:SS+GMT", from a minute to 90 days ahead.
const DUE_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$/;
const MINUTE_MS = 60_000;
const DAYS_90_MS = 90 * 24 * 60 * MINUTE_MS;

/** Why a `RedirectDueDate` is refused (12: its form, 3017: out of range), or null. */
export function dueDateRefusal(value: unknown, now = Date.now()): Answer | null {
  if (value === undefined) return null;
  if (typeof value !== "string" || !DUE_DATE.test(value) || Number.isNaN(Date.parse(value)))
    return refusal("12", "Неверный параметр RedirectDueDate");
  const due = Date.parse(value);
  if (due < now + MINUTE_MS || due > now + DAYS_90_MS)
    return refusal("3017", "Переданное значение RedirectDueDate вне допустимого диапазона");
  return null;
}
