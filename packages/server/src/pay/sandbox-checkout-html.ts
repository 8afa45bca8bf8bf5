import type { SandboxPayment } from "@kopek/provider-sandbox";
import { html } from "./html-escape.js";
import { formatPageMoney } from "./page-format.js";
import { layout } from "./page-html.js";
import type { PageLanguage } from "./page-language.js";
import { PAGE_MESSAGES } from "./page-messages.js";

/** The sandbox's checkout: what is being paid, a TEST banner, and the payer's two choices. */
export function sandboxCheckoutHtml(
  payment: SandboxPayment,
  language: PageLanguage,
  token: string,
  base: string,
): string {
  const t = PAGE_MESSAGES[language].sandbox;
  const amount = formatPageMoney(language, payment.money);
  const decided =
    payment.status === "pending"
      ? html`<form method="post" action="${base}/sandbox/checkout/${payment.providerPaymentId}">
<input type="hidden" name="token" value="${token}">
<button type="submit" name="decision" value="succeed">${t.succeed}</button>
<button type="submit" class="secondary" name="decision" value="decline">${t.decline}</button>
</form>`
      : html`<p class="notice">${t.already[payment.status]}</p>
<p><a href="${payment.returnUrl}">${t.back}</a></p>`;
  return layout(
    language,
    t.title(amount),
    html`
<p class="notice error" role="note"><strong>${t.test}</strong> — ${t.banner}</p>
<h1>${amount}</h1>
<p class="description">${payment.description}</p>
<p>${t.how[payment.method] ?? payment.method}</p>
${decided}
`,
    base,
  );
}
