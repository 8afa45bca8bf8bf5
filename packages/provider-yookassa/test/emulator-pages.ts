import { isCancellationReason, partyOf } from "./emulator-cancellation.js";
import { EMULATOR_DECLINE_CARDS, EMULATOR_SUCCESS_CARD, type Json } from "./emulator-payments.js";

// The confirmation page a payer opens from confirmation.confirmation_url. The emulator's own: YooKassa's
// real page is a card form or an SBP QR; this one is marked TEST and offers "Pay" and "Decline".

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

export function checkoutPage(payment: Json): string {
  const id = escapeHtml(String(payment.id));
  const amount = payment.amount as { value: string; currency: string };
  const status = String(payment.status);
  const reasons = [...new Set(Object.values(EMULATOR_DECLINE_CARDS)), "expired_on_confirmation"];
  const forms =
    status !== "pending"
      ? `<p id="status">This payment is ${escapeHtml(status)}.</p>`
      : `<form method="post" action="/checkout/${id}" id="pay">
  <input type="hidden" name="outcome" value="pay">
  <label>Card number <input name="card" value="${EMULATOR_SUCCESS_CARD}" inputmode="numeric"></label>
  <button type="submit">Pay</button>
</form>
<form method="post" action="/checkout/${id}" id="decline">
  <input type="hidden" name="outcome" value="decline">
  <label>Reason <select name="reason">${reasons.map((r) => `<option>${escapeHtml(r)}</option>`).join("")}</select></label>
  <button type="submit">Decline</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TEST YooKassa emulator checkout</title></head>
<body>
<h1>TEST — YooKassa emulator</h1>
<p>Payment <code>${id}</code>: ${escapeHtml(amount.value)} ${escapeHtml(amount.currency)}</p>
<p>${escapeHtml(String(payment.description ?? ""))}</p>
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
    // Only reasons YooKassa documents, and not the merchant's own (emulator-cancellation.ts).
    const reason = form.get("reason") ?? "";
    return isCancellationReason(reason) && partyOf(reason) !== "merchant" ? { decline: reason } : null;
  }
  return null;
}

/**
 * The page at a method save's `confirmation_url` (YooKassa's is a card form, "Страница привязки карты"):
 * marked TEST, a **Save card** form (card number, the success card filled in) and a **Decline** form.
 * `notice`: why the last card was refused, when it was.
 */
export function methodSavePage(method: Json, notice: string | null): string {
  const id = escapeHtml(String(method.id));
  const status = String(method.status);
  const action = `/checkout/payment-methods/${id}`;
  const forms =
    status !== "pending"
      ? `<p id="status">This payment method is ${escapeHtml(status)}.</p>`
      : `${notice === null ? "" : `<p id="notice">${escapeHtml(notice)}</p>\n`}<form method="post" action="${action}" id="save">
  <input type="hidden" name="outcome" value="save">
  <label>Card number <input name="card" value="${EMULATOR_SUCCESS_CARD}" inputmode="numeric"></label>
  <button type="submit">Save card</button>
</form>
<form method="post" action="${action}" id="decline">
  <input type="hidden" name="outcome" value="decline">
  <button type="submit">Decline</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TEST YooKassa emulator: save a card</title></head>
<body>
<h1>TEST — YooKassa emulator</h1>
<p>Save a bank card for payments without you (no money is charged now): method <code>${id}</code></p>
${forms}
</body></html>`;
}
