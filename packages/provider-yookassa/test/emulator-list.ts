import type { EmulatorBooks, Json } from "./emulator-payments.js";
import type { Invalid } from "./emulator-validation.js";

// GET /payments, the list of payments (yookassa.ru/developers/api#get_payments_list), with the paging of
// every list (yookassa.ru/developers/using-api/lists): `limit` 1 to 100 (default 10), `cursor` = the
// previous page's `next_cursor`, newest first, `{ type: "list", items, next_cursor? }`.

const LIMIT_DEFAULT = 10;
const LIMIT_MAX = 100;
const TIME_FILTERS = ["created_at.gte", "created_at.gt", "created_at.lte", "created_at.lt"] as const;
const STATUSES = ["pending", "waiting_for_capture", "succeeded", "canceled"];
// ISO 8601 date-time, as the filters are documented ("2018-07-18T10:51:18.139Z").
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

interface Position {
  readonly at: number;
  readonly index: number;
}

const invalid = (parameter: string, description: string): Invalid => ({ parameter, description });

/** The page the query asks for, or what is wrong with the query (answered 400 invalid_request). */
export function listPayments(books: EmulatorBooks, query: URLSearchParams): Invalid | Json {
  const limitText = query.get("limit");
  const limit = limitText === null ? LIMIT_DEFAULT : Number(limitText);
  if (!/^[0-9]+$/.test(limitText ?? "10") || limit < 1 || limit > LIMIT_MAX)
    return invalid("limit", `limit must be an integer from 1 to ${LIMIT_MAX}`);
  const bounds: Partial<Record<(typeof TIME_FILTERS)[number], number>> = {};
  for (const name of TIME_FILTERS) {
    const value = query.get(name);
    if (value === null) continue;
    const time = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(time)) return invalid(name, `${name} must be a date and time in ISO 8601`);
    bounds[name] = time;
  }
  const status = query.get("status");
  if (status !== null && !STATUSES.includes(status)) return invalid("status", "Unknown payment status");
  const cursorText = query.get("cursor");
  const after = cursorText === null ? null : positionOf(cursorText);
  if (after === null && cursorText !== null) return invalid("cursor", "Invalid cursor");

  const inWindow = (at: number) =>
    (bounds["created_at.gte"] === undefined || at >= bounds["created_at.gte"]) &&
    (bounds["created_at.gt"] === undefined || at > bounds["created_at.gt"]) &&
    (bounds["created_at.lte"] === undefined || at <= bounds["created_at.lte"]) &&
    (bounds["created_at.lt"] === undefined || at < bounds["created_at.lt"]);
  const newestFirst = [...books.payments.values()]
    .map((payment, index) => ({ payment, at: Date.parse(String(payment.created_at)), index }))
    .filter(({ payment, at }) => inWindow(at) && (status === null || payment.status === status))
    .sort((a, b) => b.at - a.at || b.index - a.index)
    .filter(
      (entry) =>
        after === null || entry.at < after.at || (entry.at === after.at && entry.index < after.index),
    );
  const page = newestFirst.slice(0, limit);
  const last = page.at(-1);
  return {
    type: "list",
    // As a GET of each finds it now (a "pending-until-read" charge has been decided).
    items: page.map(({ payment }) => books.readPublic(String(payment.id))),
    ...(newestFirst.length > limit && last !== undefined ? { next_cursor: cursorOf(last) } : {}),
  };
}

function cursorOf(position: Position): string {
  return Buffer.from(`${position.at}:${position.index}`).toString("base64url");
}

function positionOf(cursor: string): Position | null {
  const match = /^([0-9]+):([0-9]+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match === null ? null : { at: Number(match[1]), index: Number(match[2]) };
}

/** A payment made at `createdAt` for Kopek's `kopekPaymentId` (or none), for tests of windows and pages. */
export function seedListedPayment(
  books: EmulatorBooks,
  options: { readonly createdAt: Date; readonly kopekPaymentId?: string; readonly status?: string },
): string {
  const id = globalThis.crypto.randomUUID();
  books.payments.set(id, {
    id,
    status: options.status ?? "succeeded",
    amount: { value: "100.00", currency: "RUB" },
    created_at: options.createdAt.toISOString(),
    test: true,
    paid: options.status === undefined || options.status === "succeeded",
    refundable: false,
    metadata: options.kopekPaymentId === undefined ? {} : { kopekPaymentId: options.kopekPaymentId },
  });
  return id;
}
