import type { PaymentPage } from "@kopek/core";
import { html, type SafeHtml } from "./html-escape.js";

const METHOD_NAMES: Readonly<Record<string, string>> = { card: "card", sbp: "SBP" };

function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/pay/assets/pay.css">
</head>
<body><main>${body}</main></body>
</html>
`.value;
}

function summary(page: PaymentPage): SafeHtml {
  return html`<h1>${page.projectName}</h1>
<p class="amount">${page.amount}</p>
<p class="description">${page.description}</p>`;
}

/** Why the page shows a notice: the provider declined the payment, or could not be reached. */
export type PageNotice = "declined" | "unavailable" | null;

const NOTICES: Readonly<Record<Exclude<PageNotice, null>, string>> = {
  declined: "The payment was declined. Nothing was charged; you can try again.",
  unavailable:
    "The payment provider could not be reached. Nothing was charged; please try again in a moment.",
};

/** The page for an invoice in any state: the methods to pay with while it is payable. */
export function paymentPageHtml(page: PaymentPage, token: string, notice: PageNotice = null): string {
  if (page.state === "paid") return receiptHtml(page);
  if (page.state !== "payable") {
    const why = page.state === "expired" ? "This invoice has expired" : "This invoice was canceled";
    return layout(
      why,
      html`${summary(page)}<p class="notice">${why} and can no longer be paid. Nothing was charged.</p>`,
    );
  }
  const alert = notice === null ? html`` : html`<p class="notice error" role="alert">${NOTICES[notice]}</p>`;
  const buttons = page.methods.map(
    (m) => html`<button type="submit" name="method" value="${m}">Pay with ${METHOD_NAMES[m] ?? m}</button>`,
  );
  return layout(
    `Pay ${page.amount}`,
    html`${summary(page)}${alert}
<form method="post" action="/pay/${page.invoiceId}">
<input type="hidden" name="token" value="${token}">
${buttons}
</form>`,
  );
}

/** Back from the provider before it has decided: nothing is settled yet, the payer may look again. */
export function pendingHtml(page: PaymentPage, checkAgain: string): string {
  return layout(
    "Waiting for confirmation",
    html`${summary(page)}<p class="notice">Waiting for the payment provider to confirm the payment.</p>
<p><a href="${checkAgain}">Check again</a></p>`,
  );
}

export function receiptHtml(page: PaymentPage): string {
  const back =
    page.returnUrl === null
      ? html``
      : html`<p><a href="${page.returnUrl}">Back to ${page.projectName}</a></p>`;
  return layout(
    "Paid",
    html`${summary(page)}<p class="notice ok">Paid. Thank you!</p>
<dl><dt>Method</dt><dd>${METHOD_NAMES[page.method ?? ""] ?? page.method ?? ""}</dd>
<dt>Paid at</dt><dd>${page.paidAt?.toISOString() ?? ""}</dd>
<dt>Invoice</dt><dd>${page.invoiceId}</dd></dl>${back}`,
  );
}

/** Unknown ids, and anything that is not an invoice: says nothing about what exists. */
export function notFoundHtml(): string {
  return layout(
    "Not found",
    html`<p class="notice">There is no payment here. Check the link you were given.</p>`,
  );
}

export function errorHtml(status: number): string {
  const text =
    status === 403
      ? "This form has expired or did not come from this page. Go back, reload and try again."
      : "Something went wrong on our side. Nothing was charged; please try again in a moment.";
  return layout("Error", html`<p class="notice error">${text}</p>`);
}
