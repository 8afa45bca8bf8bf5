import { hostedPagePath, type PaymentPage } from "@kopek/core";
import { html, type SafeHtml } from "./html-escape.js";
import { methodMarks } from "./method-marks.js";
import { formatPageMoney, formatPageTime } from "./page-format.js";
import type { PageLanguage } from "./page-language.js";
import { PAGE_MESSAGES } from "./page-messages.js";
import { sellerHtml } from "./seller-html.js";

/**
 * The path below the origin where the hosted pages live (`/kopek` when mounted there; `""` at the
 * root): taken from the public URL, since that is where the payer's browser resolves links.
 */
export function basePathOf(publicUrl: string): string {
  return (URL.parse(publicUrl)?.pathname ?? "").replace(/\/+$/, "");
}

/** A whole page in `language`: its `lang`, a title and the body inside `main`; `base` as basePathOf says. */
export function layout(
  language: PageLanguage,
  title: string,
  body: SafeHtml,
  base: string,
  footer: SafeHtml = html``,
): string {
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${base}/pay/assets/pay.css">
</head>
<body><main>${body}${footer}</main></body>
</html>
`.value;
}

/** A moment in a `<time>` element: the payer reads their own form, machines the ISO one. */
function time(language: PageLanguage, at: Date): SafeHtml {
  return html`<time datetime="${at.toISOString()}">${formatPageTime(language, at)}</time>`;
}

/** Sandbox projects: a banner above everything else, so nobody takes a test invoice for a real one. */
function testBanner(page: PaymentPage, language: PageLanguage): SafeHtml {
  if (!page.test) return html``;
  const t = PAGE_MESSAGES[language];
  return html`<p class="notice test" role="note"><strong>${t.sandbox.test}</strong> — ${t.testInvoice}</p>
`;
}

function summary(page: PaymentPage, language: PageLanguage): SafeHtml {
  const amount = formatPageMoney(language, page.amount);
  // Kopek's own description (the merchant gave none) in the payer's language; the merchant's as written.
  const description = page.generatedDescription
    ? PAGE_MESSAGES[language].invoiceFor(amount)
    : page.description;
  return html`${testBanner(page, language)}<h1>${page.merchantName}</h1>
<p class="amount">${amount}</p>
<p class="description">${description}</p>`;
}

/**
 * Why the page shows a notice: the provider declined the payment, refused to make it (it answered
 * Kopek's request with an error), or could not be reached, or the invoice takes no new attempt
 * (another method's attempt is still pending).
 */
export type PageNotice = "declined" | "refused" | "unavailable" | "exhausted" | null;

/** The page for an invoice in any state: the methods to pay with while it is payable. */
export function paymentPageHtml(
  page: PaymentPage,
  language: PageLanguage,
  token: string,
  notice: PageNotice,
  base: string,
): string {
  const t = PAGE_MESSAGES[language];
  if (page.state === "paid") return receiptHtml(page, language, base);
  if (page.state !== "payable") {
    const [title, text] =
      page.state === "expired"
        ? [t.expiredTitle, t.expired]
        : page.state === "attempts_exhausted"
          ? [t.exhaustedTitle, t.exhausted]
          : [t.canceledTitle, t.canceled];
    return layout(
      language,
      title,
      html`${summary(page, language)}<p class="notice">${text}</p>`,
      base,
      sellerHtml(page.seller, language),
    );
  }
  const alert = notice === null ? html`` : html`<p class="notice error" role="alert">${t[notice]}</p>`;
  const buttons = page.methods.map(
    (m) => html`<button type="submit" name="method" value="${m}">${t.payWith[m] ?? m}</button>`,
  );
  return layout(
    language,
    t.payTitle(formatPageMoney(language, page.amount)),
    html`${summary(page, language)}<p class="expires">${t.payBy} ${time(language, page.expiresAt)}</p>${alert}
<form method="post" action="${base}${hostedPagePath(page.projectId, page.invoiceId)}" aria-label="${t.chooseMethod}">
<input type="hidden" name="token" value="${token}">
${buttons}
</form>${methodMarks(page.methods, language)}`,
    base,
    sellerHtml(page.seller, language),
  );
}

/** Back from the provider before it has decided: nothing is settled yet, the payer may look again. */
export function pendingHtml(
  page: PaymentPage,
  language: PageLanguage,
  checkAgain: string,
  base: string,
): string {
  const t = PAGE_MESSAGES[language];
  return layout(
    language,
    t.pendingTitle,
    html`${summary(page, language)}<p class="notice">${t.pending}</p>
<p><a href="${checkAgain}">${t.checkAgain}</a></p>`,
    base,
    sellerHtml(page.seller, language),
  );
}

export function receiptHtml(page: PaymentPage, language: PageLanguage, base: string): string {
  const t = PAGE_MESSAGES[language];
  const back =
    page.returnUrl === null
      ? html``
      : html`<p><a href="${page.returnUrl}">${t.backTo(page.merchantName)}</a></p>`;
  const method = page.method === null ? "" : (t.methodNames[page.method] ?? page.method);
  const paidAt = page.paidAt === null ? html`` : time(language, page.paidAt);
  const contacts = receiptContacts(page.receiptTo);
  const receipt = contacts.length === 0 ? html`` : html`<p class="receipt">${t.receiptTo(contacts)}</p>`;
  return layout(
    language,
    t.paidTitle,
    html`${summary(page, language)}<p class="notice ok">${t.paid}</p>${receipt}
<dl><dt>${t.methodLabel}</dt><dd>${method}</dd>
<dt>${t.paidAtLabel}</dt><dd>${paidAt}</dd>
<dt>${t.invoiceLabel}</dt><dd>№ ${page.orderNumber} <small class="id">${page.invoiceId}</small></dd></dl>${back}`,
    base,
    sellerHtml(page.seller, language),
  );
}

/**
 * The receipt's contacts as the paid page shows them: masked, since anyone holding the link sees the
 * page — an e-mail's first two letters and its domain, a phone's first two and last four characters.
 */
export function receiptContacts(to: PaymentPage["receiptTo"]): string[] {
  if (to === null) return [];
  const shown: string[] = [];
  if (to.email !== null) {
    const at = to.email.lastIndexOf("@");
    shown.push(`${to.email.slice(0, Math.min(2, Math.max(1, at - 1)))}***${to.email.slice(at)}`);
  }
  if (to.phone !== null)
    shown.push(`${to.phone.slice(0, 2)}${"*".repeat(Math.max(0, to.phone.length - 6))}${to.phone.slice(-4)}`);
  return shown;
}

/** Unknown ids, and anything that is not an invoice: says nothing about what exists. */
export function notFoundHtml(language: PageLanguage, base: string): string {
  const t = PAGE_MESSAGES[language];
  return layout(language, t.notFoundTitle, html`<p class="notice">${t.notFound}</p>`, base);
}

export function errorHtml(language: PageLanguage, status: number, base: string): string {
  const t = PAGE_MESSAGES[language];
  const text = status === 403 ? t.formExpired : t.failed;
  return layout(language, t.errorTitle, html`<p class="notice error">${text}</p>`, base);
}
