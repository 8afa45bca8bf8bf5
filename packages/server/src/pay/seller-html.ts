import type { SellerDetails } from "@kopek/core";
import { html, type SafeHtml } from "./html-escape.js";
import type { PageLanguage } from "./page-language.js";

// The seller block at the foot of Kopek's pages (issue 42 part 3): who is paid, as the project's
// settings say (projects file `seller`, `kopek projects … --seller-…`); only what is set is shown.

const WORDS: Readonly<
  Record<
    PageLanguage,
    { readonly seller: string; readonly inn: string; readonly offer: string; readonly privacy: string }
  >
> = {
  en: { seller: "Seller", inn: "Taxpayer number (INN)", offer: "Public offer", privacy: "Privacy policy" },
  ru: { seller: "Продавец", inn: "ИНН", offer: "Договор-оферта", privacy: "Политика конфиденциальности" },
};

/** A phone as people read it: +7 999 123-45-67 for a Russian number, the digits as given otherwise. */
function readablePhone(phone: string): string {
  const ru = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone);
  return ru === null ? phone : `+7 ${ru[1]} ${ru[2]}-${ru[3]}-${ru[4]}`;
}

/** The seller block, or nothing when the project sets no seller details. */
export function sellerHtml(seller: SellerDetails | null, language: PageLanguage): SafeHtml {
  if (seller === null) return html``;
  const t = WORDS[language];
  const joined = (parts: readonly SafeHtml[]) =>
    parts.length === 0
      ? html``
      : html`<p>${parts.flatMap((part, i) => (i === 0 ? [part] : [html` · `, part]))}</p>`;
  const who = [
    ...(seller.legalName === undefined ? [] : [html`${seller.legalName}`]),
    ...(seller.inn === undefined ? [] : [html`${t.inn} ${seller.inn}`]),
  ];
  const contacts = [
    ...(seller.email === undefined ? [] : [html`<a href="mailto:${seller.email}">${seller.email}</a>`]),
    ...(seller.phone === undefined
      ? []
      : [html`<a href="tel:${seller.phone}">${readablePhone(seller.phone)}</a>`]),
  ];
  const documents = [
    ...(seller.offerUrl === undefined ? [] : [html`<a href="${seller.offerUrl}">${t.offer}</a>`]),
    ...(seller.privacyUrl === undefined ? [] : [html`<a href="${seller.privacyUrl}">${t.privacy}</a>`]),
  ];
  return html`<footer class="seller" aria-label="${t.seller}">${joined(who)}${joined(contacts)}${joined(documents)}</footer>`;
}
