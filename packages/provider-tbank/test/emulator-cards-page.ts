import type { IncomingMessage, ServerResponse } from "node:http";
import { EMULATOR_SUCCESS_CARD } from "./emulator-books.js";
import type { CardBinding, EmulatorCardBindings } from "./emulator-cards.js";
import { readBody, redirect, sendText } from "./emulator-http.js";
import { escapeHtml } from "./emulator-pages.js";

// T-Bank's card binding form as the emulator plays it, at AddCard's PaymentURL (`/addcard/<RequestKey>`):
// marked TEST. "Save card" binds the card typed (a decline card is refused), "Decline" refuses; then the
// payer is sent (303) to the terminal's "Success Add Card URL" or "Fail Add Card URL" ([T] AddCard), or,
// with none set, shown the outcome.

export function addCardPage(binding: CardBinding, action: string): string {
  const open = ["NEW", "FORM_SHOWED"].includes(binding.Status);
  const forms = open
    ? `<form method="post" action="${escapeHtml(action)}" id="save">
  <input type="hidden" name="outcome" value="save">
  <label>Card number <input name="card" value="${EMULATOR_SUCCESS_CARD}" inputmode="numeric"></label>
  <button type="submit">Save card</button>
</form>
<form method="post" action="${escapeHtml(action)}" id="decline">
  <input type="hidden" name="outcome" value="decline">
  <button type="submit">Decline</button>
</form>`
    : `<p id="status">This card binding is ${escapeHtml(binding.Status)}.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TEST T-Bank emulator card binding</title></head>
<body>
<h1>TEST — T-Bank emulator: save a card</h1>
<p>No money moves: the shop may later charge this card without asking.</p>
${forms}
</body></html>`;
}

/** The payer's choice from the submitted form, or null when it makes no sense. */
export function bindingDecisionOf(form: URLSearchParams): { card: string } | { decline: string } | null {
  const outcome = form.get("outcome");
  if (outcome === "decline") return { decline: "Отказ плательщика" };
  if (outcome !== "save") return null;
  const card = (form.get("card") ?? "").replace(/\s+/g, "");
  return /^[0-9]{16}$/.test(card) ? { card } : null;
}

export async function handleAddCardPage(
  request: IncomingMessage,
  response: ServerResponse,
  cards: EmulatorCardBindings,
  requestKey: string,
): Promise<void> {
  const binding = cards.bindings.get(requestKey);
  if (binding === undefined) return sendText(response, 404, "text/plain", "No such card binding");
  if (request.method === "POST") {
    const decision = bindingDecisionOf(new URLSearchParams(await readBody(request)));
    if (decision === null) return sendText(response, 400, "text/plain", "Bad form");
    const decided = cards.decide(requestKey, decision);
    const urls = cards.addCardUrls;
    if (decided !== null && urls !== null)
      return redirect(response, decided.Status === "COMPLETED" ? urls.success : urls.fail);
  } else {
    cards.show(requestKey);
  }
  sendText(response, 200, "text/html; charset=utf-8", addCardPage(binding, `/addcard/${requestKey}`));
}
