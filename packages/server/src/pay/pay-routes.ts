import { type Kopek, type KopekError, normalizedUrl, pageReturnPath } from "@kopek/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { describeCause, redactSecrets } from "../startup/logger.js";
import { csrfToken, isValidCsrfToken } from "./csrf-token.js";
import {
  basePathOf,
  errorHtml,
  notFoundHtml,
  type PageNotice,
  paymentPageHtml,
  pendingHtml,
} from "./page-html.js";
import { negotiateLanguage, type PageLanguage } from "./page-language.js";
import { PAY_CSS } from "./pay-css.js";

export interface PayRoutesOptions {
  readonly kopek: Kopek;
  /** Signs the forms' CSRF tokens. */
  readonly secret: Uint8Array;
  /** KOPEK_PUBLIC_URL (or where the server listens): the origin payers see, e.g. behind a TLS proxy. */
  readonly publicUrl: string | (() => string);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// An origin as the provider port declares it: scheme, host, optional port; nothing that could end a directive.
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$/;

/**
 * `form-action` must name where the 303 after choosing a method goes, since browsers check redirects
 * of a form post: this server ('self': the sandbox's checkout) and the provider's confirmation pages.
 */
function contentSecurityPolicy(formOrigins: readonly string[]): string {
  // Each source is the parsed URL's origin (ASCII, punycode host), never the characters as given.
  const origins = formOrigins.map((origin) => (URL.canParse(origin) ? new URL(origin).origin : ""));
  const targets = ["'self'", ...origins.filter((origin) => ORIGIN.test(origin))].join(" ");
  return `default-src 'none'; style-src 'self'; form-action ${targets}; base-uri 'none'; frame-ancestors 'none'`;
}

export function sendHtml(
  reply: FastifyReply,
  status: number,
  body: string,
  formOrigins: readonly string[] = [],
) {
  return (
    reply
      .code(status)
      .header("content-type", "text/html; charset=utf-8")
      .header("content-security-policy", contentSecurityPolicy(formOrigins))
      // same-origin, not no-referrer: a form post must carry a real Origin for the check below.
      .header("referrer-policy", "same-origin")
      .header("x-frame-options", "DENY")
      // Every page speaks the payer's Accept-Language (page-language.ts): a cache must key on it.
      .header("vary", "Accept-Language")
      .send(body)
  );
}

/**
 * A 303 to `url` in its ASCII form (`normalizedUrl`), so a non-ASCII character can never make the
 * Location header throw; a URL that does not even parse gets the 502 page instead of a raw 500.
 */
export function seeOther(reply: FastifyReply, url: string, language: PageLanguage, base: string) {
  if (!URL.canParse(url)) return sendHtml(reply, 502, errorHtml(language, 502, base));
  return reply.code(303).header("location", normalizedUrl(url)).send();
}

/** The language a request's pages are shown in, from its Accept-Language. */
export function languageOf(request: FastifyRequest): PageLanguage {
  return negotiateLanguage(request.headers["accept-language"]);
}

export function sendError(reply: FastifyReply, language: PageLanguage, error: KopekError, base: string) {
  if (error.code === "not_found") return sendHtml(reply, 404, notFoundHtml(language, base));
  if (error.code === "method_unavailable") return sendHtml(reply, 400, errorHtml(language, 400, base));
  return sendHtml(reply, error.code === "storage_unavailable" ? 503 : 500, errorHtml(language, 500, base));
}

/**
 * A provider that did not start the payment: the payer is told whether it refused (it answered with
 * an error, or declined) or could not be reached, and the operator reads its own words in the log.
 * Null for any other error.
 */
function providerTrouble(error: KopekError): {
  readonly notice: "declined" | "refused" | "unavailable";
  readonly status: number;
  readonly message: string;
} | null {
  const said = (cause: unknown) => describeCause(cause).message as string;
  switch (error.code) {
    case "payment_declined":
      return { notice: "declined", status: 402, message: redactSecrets(error.detail) };
    case "provider_error":
      return { notice: "refused", status: 502, message: said(error.cause) };
    case "provider_unavailable":
      return { notice: "unavailable", status: 502, message: said(error.cause) };
    default:
      return null;
  }
}

/**
 * `providerTrouble`, logged with the provider's own message (redacted; a ProviderError never carries a
 * method token) and `fields` saying what the payer was doing: `what` was not started.
 */
export function reportedTrouble(
  request: FastifyRequest,
  error: KopekError,
  what: string,
  fields: Readonly<Record<string, unknown>>,
) {
  const trouble = providerTrouble(error);
  if (trouble === null) return null;
  const unreachable = trouble.notice === "unavailable";
  request.log[unreachable ? "warn" : "error"](
    { ...fields, code: error.code, providerMessage: trouble.message },
    `${what} not started: the provider ${unreachable ? "could not be reached" : "refused it"}`,
  );
  return trouble;
}

/**
 * A post from this site: its Origin (or, without one, its Referer) is where the page was served —
 * the public URL's origin (what a payer sees when a proxy ends TLS in front of the server) or the
 * request's own.
 */
/** Parses this context's form posts (small, URL-encoded) into their fields. */
export function acceptForms(app: FastifyInstance) {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 4096 },
    (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}

export function sameOrigin(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const own = `${request.protocol}://${request.host}`;
  const allowed = (candidate: string | undefined) =>
    candidate === own || (candidate !== undefined && candidate === publicOrigin);
  const origin = request.headers.origin;
  if (typeof origin === "string") return allowed(origin);
  const referer = request.headers.referer;
  return typeof referer === "string" && allowed(URL.parse(referer)?.origin);
}

/** The route's invoice and, in the canonical form, its project; null for the legacy form (`/pay/{invoiceId}`). */
interface PageParams {
  readonly id: string;
  readonly project?: string;
}

/** The params as the page's lookups take them; null unless each is a UUID (the page answers 404). */
function pageParams(params: PageParams): { readonly id: string; readonly projectId: string | null } | null {
  const projectId = params.project ?? null;
  if (!UUID.test(params.id) || (projectId !== null && !UUID.test(projectId))) return null;
  return { id: params.id, projectId };
}

/**
 * The hosted payment page (API.md 10.3): GET /pay/{projectId}/{invoiceId} offers the methods; POST
 * (a method) starts a payment at the provider and sends the payer there with 303;
 * GET /pay/{projectId}/{invoiceId}/return, where the provider sends the payer back, asks the provider
 * and shows the outcome. The same without the project (/pay/{invoiceId}, …/return) for links handed
 * out before they named it. HTML only, no script; nothing here settles anything: core does, on the
 * provider's word.
 */
export async function payRoutes(app: FastifyInstance, { kopek, secret, publicUrl }: PayRoutesOptions) {
  const publicOrigin = () => URL.parse(typeof publicUrl === "string" ? publicUrl : publicUrl())?.origin;
  // Links on the pages start here: the path of the public URL, where the payer's browser finds them.
  const base = () => basePathOf(typeof publicUrl === "string" ? publicUrl : publicUrl());
  acceptForms(app);

  app.get("/pay/assets/pay.css", (_request, reply) =>
    reply
      .header("content-type", "text/css; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(PAY_CSS),
  );

  /** The page as it stands, with a notice; `status` for the answer. */
  async function sendPage(
    request: FastifyRequest,
    reply: FastifyReply,
    { id, projectId }: { readonly id: string; readonly projectId: string | null },
    status: number,
    notice: PageNotice = null,
  ) {
    const language = languageOf(request);
    const page = await kopek.paymentPage(id, projectId);
    if (page.isErr()) return sendError(reply, language, page.error, base());
    // The CSRF token is bound to the invoice alone: the same for both forms of its URL.
    const html = paymentPageHtml(page.value, language, csrfToken(secret, id), notice, base());
    return sendHtml(reply, status, html, page.value.confirmationOrigins);
  }

  const showPage = async (request: FastifyRequest<{ Params: PageParams }>, reply: FastifyReply) => {
    const page = pageParams(request.params);
    if (page === null) return sendHtml(reply, 404, notFoundHtml(languageOf(request), base()));
    return sendPage(request, reply, page, 200);
  };

  const choose = async (
    request: FastifyRequest<{ Params: PageParams; Body: Record<string, string> | undefined }>,
    reply: FastifyReply,
  ) => {
    const page = pageParams(request.params);
    const language = languageOf(request);
    if (page === null) return sendHtml(reply, 404, notFoundHtml(language, base()));
    const { id, projectId } = page;
    const form = request.body ?? {};
    if (!sameOrigin(request, publicOrigin()) || !isValidCsrfToken(secret, id, form.token))
      return sendHtml(reply, 403, errorHtml(language, 403, base()));
    if (typeof form.method !== "string" || form.method === "")
      return sendHtml(reply, 400, errorHtml(language, 400, base()));
    const started = await kopek.startPayment({ invoiceId: id, projectId, method: form.method });
    if (started.isErr()) {
      const trouble = reportedTrouble(request, started.error, "payment", {
        invoiceId: id,
        method: redactSecrets(form.method),
      });
      if (trouble === null) return sendError(reply, language, started.error, base());
      return sendPage(request, reply, page, trouble.status, trouble.notice);
    }
    if (started.value.kind === "confirm") return seeOther(reply, started.value.url, language, base());
    // No new attempt: the page says the invoice cannot be paid here (or, while another method's attempt is pending, offers that).
    if (started.value.kind === "attempts_exhausted") return sendPage(request, reply, page, 409, "exhausted");
    // Paid, expired or canceled meanwhile: the page says which.
    return sendPage(request, reply, page, started.value.invoice.status === "paid" ? 200 : 409);
  };

  const returned = async (
    request: FastifyRequest<{ Params: PageParams; Querystring: { payment?: string } }>,
    reply: FastifyReply,
  ) => {
    const page = pageParams(request.params);
    const language = languageOf(request);
    const paymentId = request.query.payment ?? "";
    if (page === null || !UUID.test(paymentId)) return sendHtml(reply, 404, notFoundHtml(language, base()));
    const { id, projectId } = page;
    const checked = await kopek.checkPayment({ invoiceId: id, projectId, paymentId });
    if (checked.isErr()) return sendError(reply, language, checked.error, base());
    const { payment } = checked.value;
    if (payment.status === "canceled") return sendPage(request, reply, page, 200, "declined");
    if (payment.status === "succeeded") return sendPage(request, reply, page, 200);
    const shown = await kopek.paymentPage(id, projectId);
    if (shown.isErr()) return sendError(reply, language, shown.error, base());
    const again = `${base()}${pageReturnPath(shown.value.projectId, id, paymentId)}`;
    return sendHtml(reply, 202, pendingHtml(shown.value, language, again, base()));
  };

  // find-my-way prefers a static segment to a parameter: /pay/assets/pay.css and /pay/{id}/return
  // are never taken for /pay/{projectId}/{invoiceId}.
  app.get<{ Params: PageParams }>("/pay/:project/:id", showPage);
  app.get<{ Params: PageParams }>("/pay/:id", showPage);
  app.post<{ Params: PageParams; Body: Record<string, string> | undefined }>("/pay/:project/:id", choose);
  app.post<{ Params: PageParams; Body: Record<string, string> | undefined }>("/pay/:id", choose);
  app.get<{ Params: PageParams; Querystring: { payment?: string } }>("/pay/:project/:id/return", returned);
  app.get<{ Params: PageParams; Querystring: { payment?: string } }>("/pay/:id/return", returned);
}
