import type { SandboxPayment } from "@kopek/provider-sandbox";
import { html } from "./html-escape.js";

const HOW: Readonly<Record<string, string>> = {
  card: "Card payment form (test: no card details are asked)",
  sbp: "SBP: in a real bank app the payer would scan a QR code (test: no bank is asked)",
};

/** The sandbox's checkout: what is being paid, a TEST banner, and the payer's two choices. */
export function sandboxCheckoutHtml(
  payment: SandboxPayment & { readonly amount: string },
  token: string,
): string {
  const decided =
    payment.status === "pending"
      ? html`<form method="post" action="/sandbox/checkout/${payment.providerPaymentId}">
<input type="hidden" name="token" value="${token}">
<button type="submit" name="decision" value="succeed">Succeed</button>
<button type="submit" class="secondary" name="decision" value="decline">Decline</button>
</form>`
      : html`<p class="notice">This test payment was already ${payment.status}.</p>
<p><a href="${payment.returnUrl}">Back to the shop</a></p>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>TEST payment ${payment.amount}</title>
<link rel="stylesheet" href="/pay/assets/pay.css">
</head>
<body><main>
<p class="notice error" role="note"><strong>TEST</strong> — Kopek sandbox provider: no money moves.</p>
<h1>${payment.amount}</h1>
<p class="description">${payment.description}</p>
<p>${HOW[payment.method] ?? payment.method}</p>
${decided}
</main></body>
</html>
`.value;
}
