import { type MethodUpdatePage, methodUpdatePagePath } from "@kopek/core";
import { html, type SafeHtml } from "./html-escape.js";
import { methodMarks } from "./method-marks.js";
import { METHOD_PAGE_MESSAGES } from "./method-page-messages.js";
import { formatPageMoney, formatPageTime } from "./page-format.js";
import { layout } from "./page-html.js";
import type { PageLanguage } from "./page-language.js";
import { PAGE_MESSAGES } from "./page-messages.js";
import { sellerHtml } from "./seller-html.js";

/**
 * Why the method-update page shows a notice: the provider declined the check, refused to make it, or
 * could not be reached; or it checked the method but saved none (the check is refunded).
 */
export type MethodPageNotice = "declined" | "refused" | "unavailable" | "notSaved" | null;

function summary(page: MethodUpdatePage, language: PageLanguage): SafeHtml {
  const t = METHOD_PAGE_MESSAGES[language];
  const charge = `${formatPageMoney(language, page.amount)} ${t.every(page.period.count, page.period.unit)}`;
  const test = page.test
    ? html`<p class="notice test" role="note"><strong>${PAGE_MESSAGES[language].sandbox.test}</strong> — ${t.testNote}</p>
`
    : html``;
  // Kopek's own description (the merchant gave none) in the payer's language; the merchant's as written.
  const description = page.generatedDescription ? charge : page.description;
  return html`${test}<h1>${page.merchantName}</h1>
<p class="description">${description}</p>
<p>${t.lead(charge)}</p>
<dl><dt>${t.currentMethod}</dt><dd>${page.methodMask}</dd></dl>`;
}

/** The method-update page (API.md 11.5) in any state: the methods to save while it is open. */
export function methodPageHtml(
  page: MethodUpdatePage,
  language: PageLanguage,
  token: string,
  notice: MethodPageNotice,
  base: string,
): string {
  const t = METHOD_PAGE_MESSAGES[language];
  if (page.state !== "open") {
    const [title, text]: readonly [string, string] =
      page.state === "completed"
        ? [t.completedTitle, page.pastDue ? t.completedPastDue : t.completed]
        : page.state === "expired"
          ? [t.expiredTitle, t.expired]
          : page.state === "closed"
            ? [t.closedTitle, t.closed]
            : [t.exhaustedTitle, t.exhausted];
    const tone = page.state === "completed" ? "notice ok" : "notice";
    return layout(
      language,
      title,
      html`${summary(page, language)}<p class="${tone}">${text}</p>`,
      base,
      sellerHtml(page.seller, language),
    );
  }
  const alert =
    notice === null
      ? html``
      : html`<p class="notice error" role="alert">${notice === "notSaved" ? t.notSaved : t[notice]}</p>`;
  const checks = [
    ...new Set(
      page.methods.flatMap((m) =>
        m.verification === null ? [] : [formatPageMoney(language, m.verification)],
      ),
    ),
  ];
  const costs =
    checks.length > 0 && page.methods.some((m) => m.verification === null)
      ? html`<p>${t.verification(checks.join(" / "))}</p><p>${t.noCharge}</p>`
      : checks.length > 0
        ? html`<p>${t.verification(checks.join(" / "))}</p>`
        : html`<p>${t.noCharge}</p>`;
  const pastDue = page.pastDue ? html`<p>${t.pastDue(formatPageMoney(language, page.amount))}</p>` : html``;
  const buttons = page.methods.map(
    (m) =>
      html`<button type="submit" name="method" value="${m.method}">${t.saveWith[m.method] ?? m.method}</button>`,
  );
  const until = formatPageTime(language, page.expiresAt);
  return layout(
    language,
    t.title,
    html`${summary(page, language)}${costs}${pastDue}
<p class="expires">${t.validUntil} <time datetime="${page.expiresAt.toISOString()}">${until}</time></p>${alert}
<form method="post" action="${base}${methodUpdatePagePath(page.projectId, page.subscriptionId, page.updateId)}" aria-label="${t.chooseMethod}">
<input type="hidden" name="token" value="${token}">
${buttons}
</form>${methodMarks(
      page.methods.map((m) => m.method),
      language,
    )}`,
    base,
    sellerHtml(page.seller, language),
  );
}

/** Back from the provider before it decided the check (or the save): the payer may look again. */
export function methodPendingHtml(
  page: MethodUpdatePage,
  language: PageLanguage,
  checkAgain: string,
  base: string,
  what: "check" | "save" = "check",
): string {
  const t = METHOD_PAGE_MESSAGES[language];
  return layout(
    language,
    t.pendingTitle,
    html`${summary(page, language)}<p class="notice">${what === "check" ? t.pending : t.savePending}</p>
<p><a href="${checkAgain}">${PAGE_MESSAGES[language].checkAgain}</a></p>`,
    base,
    sellerHtml(page.seller, language),
  );
}

/** Back from a provider's own page with no link to show (T-Bank's fixed return address, no cookie). */
export function methodReturnedHtml(language: PageLanguage, base: string): string {
  const t = METHOD_PAGE_MESSAGES[language];
  return layout(
    language,
    t.returnedTitle,
    html`<h1>${t.returnedTitle}</h1>
<p class="notice">${t.returned}</p>`,
    base,
  );
}
