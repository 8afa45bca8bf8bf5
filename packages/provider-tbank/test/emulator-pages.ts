import type { IncomingMessage, ServerResponse } from "node:http";
import {
  EMULATOR_DECLINE_CARDS,
  EMULATOR_SUCCESS_CARD,
  type EmulatedPayment,
  type EmulatorBooks,
} from "./emulator-books.js";
import { readBody, redirect, sendText } from "./emulator-http.js";

// The pages a payer opens from PaymentURL (a card form) or from an SBP payload (the bank app's
// confirmation). The emulator's own, marked TEST: T-Bank's real form is on securepay.tinkoff.ru.

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

export function checkoutPage(payment: EmulatedPayment, action: string): string {
  const id = escapeHtml(payment.PaymentId);
  const open = ["NEW", "FORM_SHOWED"].includes(payment.Status);
  const cardField = payment.sbp
    ? `<input type="hidden" name="card" value="${EMULATOR_SUCCESS_CARD}">`
    : `<label>Card number <input name="card" value="${EMULATOR_SUCCESS_CARD}" inputmode="numeric"></label>`;
  const reasons = [...new Set(Object.values(EMULATOR_DECLINE_CARDS))];
  const forms = !open
    ? `<p id="status">This payment is ${escapeHtml(payment.Status)}.</p>`
    : `<form method="post" action="${escapeHtml(action)}" id="pay">
  <input type="hidden" name="outcome" value="pay">
  ${cardField}
  <button type="submit">Pay</button>
</form>
<form method="post" action="${escapeHtml(action)}" id="decline">
  <input type="hidden" name="outcome" value="decline">
  <label>Reason <select name="reason">${reasons.map((r) => `<option>${escapeHtml(r)}</option>`).join("")}</select></label>
  <button type="submit">Decline</button>
</form>`;
  const rubles = `${Math.trunc(payment.Amount / 100)}.${String(payment.Amount % 100).padStart(2, "0")}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TEST T-Bank emulator ${payment.sbp ? "SBP" : "checkout"}</title></head>
<body>
<h1>TEST — T-Bank emulator${payment.sbp ? " (SBP)" : ""}</h1>
<p>Payment <code>${id}</code>: ${rubles} RUB</p>
<p>${escapeHtml(payment.Description ?? "")}</p>
${forms}
</body></html>`;
}

/** The payer's choice from a submitted form, or null when the form makes no sense. */
export function decisionOf(form: URLSearchParams): { card: string } | { decline: string } | null {
  const outcome = form.get("outcome");
  if (outcome === "pay") {
    const card = (form.get("card") ?? "").replace(/\s+/g, "");
    return /^[0-9]{16}$/.test(card) ? { card } : null;
  }
  if (outcome === "decline") {
    const reason = form.get("reason") ?? "";
    return reason.length > 0 && reason.length <= 100 ? { decline: reason } : null;
  }
  return null;
}

/**
 * The checkout at `PaymentURL` (`/new/{PaymentId}`) or an SBP payload (`/qr/{PaymentId}`): a GET shows
 * the form (`NEW` → `FORM_SHOWED`), a POST decides and sends the payer to `SuccessURL` / `FailURL` (303).
 */
export async function handleCheckoutPage(
  request: IncomingMessage,
  response: ServerResponse,
  books: EmulatorBooks,
  kind: string,
  id: string,
): Promise<void> {
  const payment = books.payments.get(id);
  if (payment === undefined) return sendText(response, 404, "text/plain", "No such payment");
  if (request.method === "POST") {
    const decision = decisionOf(new URLSearchParams(await readBody(request)));
    if (decision === null) return sendText(response, 400, "text/plain", "Bad form");
    const decided = books.decide(id, decision);
    const back = decided?.Status === "CONFIRMED" ? payment.SuccessURL : payment.FailURL;
    if (back) return redirect(response, back);
  } else {
    books.show(id);
  }
  sendText(response, 200, "text/html; charset=utf-8", checkoutPage(payment, `/${kind}/${id}`));
}
