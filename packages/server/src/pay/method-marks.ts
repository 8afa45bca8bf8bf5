import { html, SafeHtml } from "./html-escape.js";
import type { PageLanguage } from "./page-language.js";
import { PAGE_MESSAGES } from "./page-messages.js";

// The marks of the methods a page offers (issue 42 part 3): drawn here as inline SVG — no third-party
// asset, nothing fetched, allowed by the pages' Content-Security-Policy (no script, no remote image).
// Our own drawings in the brands' colours, not their logos: "МИР" on Mir's green, "СБП" beside four
// coloured triangles like the Faster Payments System's sign.

const MARKS: Readonly<Record<string, { readonly label: string; readonly svg: string }>> = {
  card: {
    label: "Мир",
    svg: `<svg class="mark" viewBox="0 0 64 24" width="64" height="24" aria-hidden="true" focusable="false"><rect width="64" height="24" rx="5" fill="#0b6b45"/><text x="32" y="17" text-anchor="middle" font-family="Arial, sans-serif" font-size="13" font-weight="700" fill="#ffffff">МИР</text></svg>`,
  },
  sbp: {
    label: "СБП",
    svg: `<svg class="mark" viewBox="0 0 64 24" width="64" height="24" aria-hidden="true" focusable="false"><rect width="64" height="24" rx="5" fill="#ffffff" stroke="#c9ccd3"/><path d="M6 4l8 8-8 8z" fill="#5b57a2"/><path d="M6 4l8 8h8z" fill="#d90751"/><path d="M14 12l8 0-8 8z" fill="#1d86c6"/><path d="M22 12l-8-8 8 0z" fill="#f9b229"/><text x="43" y="17" text-anchor="middle" font-family="Arial, sans-serif" font-size="12" font-weight="700" fill="#1d1f23">СБП</text></svg>`,
  },
};

/** The marks of `methods`, in order, as a list a screen reader names ("Способы оплаты: Мир, СБП"). */
export function methodMarks(methods: readonly string[], language: PageLanguage): SafeHtml {
  const shown = methods.flatMap((method) => {
    const mark = MARKS[method];
    return mark === undefined ? [] : [mark];
  });
  if (shown.length === 0) return html``;
  const items = shown.map(
    (mark) => html`<li>${new SafeHtml(mark.svg)}<span class="visually-hidden">${mark.label}</span></li>`,
  );
  return html`<ul class="marks" aria-label="${PAGE_MESSAGES[language].acceptedMarks}">${items}</ul>`;
}
