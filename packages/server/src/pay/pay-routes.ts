import type { Kopek, KopekError, PaymentPage } from "@kopek/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { csrfToken, isValidCsrfToken } from "./csrf-token.js";
import { errorHtml, notFoundHtml, paymentPageHtml } from "./page-html.js";
import { PAY_CSS } from "./pay-css.js";

export interface PayRoutesOptions {
  readonly kopek: Kopek;
  /** Signs the forms' CSRF tokens. */
  readonly secret: Uint8Array;
  /** KOPEK_PUBLIC_URL (or where the server listens): the origin payers see, e.g. behind a TLS proxy. */
  readonly publicUrl: string | (() => string);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `form-action` must name where the 303 after paying goes: browsers check redirects of a form post. */
function contentSecurityPolicy(page: PaymentPage | null): string {
  const returnOrigin = page?.returnUrl ? URL.parse(page.returnUrl)?.origin : undefined;
  const formAction = returnOrigin && returnOrigin !== "null" ? `'self' ${returnOrigin}` : "'self'";
  return `default-src 'none'; style-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`;
}

function sendHtml(reply: FastifyReply, status: number, body: string, page: PaymentPage | null = null) {
  return (
    reply
      .code(status)
      .header("content-type", "text/html; charset=utf-8")
      .header("content-security-policy", contentSecurityPolicy(page))
      // same-origin, not no-referrer: a form post must carry a real Origin for the check below.
      .header("referrer-policy", "same-origin")
      .header("x-frame-options", "DENY")
      .send(body)
  );
}

function sendError(reply: FastifyReply, error: KopekError) {
  if (error.code === "not_found") return sendHtml(reply, 404, notFoundHtml());
  if (error.code === "method_unavailable") return sendHtml(reply, 400, errorHtml(400));
  return sendHtml(reply, error.code === "storage_unavailable" ? 503 : 500, errorHtml(500));
}

/**
 * A post from this site: its Origin (or, without one, its Referer) is where the page was served —
 * the public URL's origin (what a payer sees when a proxy ends TLS in front of the server) or the
 * request's own.
 */
function sameOrigin(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const own = `${request.protocol}://${request.host}`;
  const allowed = (candidate: string | undefined) =>
    candidate === own || (candidate !== undefined && candidate === publicOrigin);
  const origin = request.headers.origin;
  if (typeof origin === "string") return allowed(origin);
  const referer = request.headers.referer;
  return typeof referer === "string" && allowed(URL.parse(referer)?.origin);
}

/**
 * The hosted payment page (GET/POST /pay/{invoiceId}): HTML only, no script, every rule in core. The
 * routes parse the form, call `kopek.payInvoice` and render what it says.
 */
export async function payRoutes(app: FastifyInstance, { kopek, secret, publicUrl }: PayRoutesOptions) {
  const publicOrigin = () => URL.parse(typeof publicUrl === "string" ? publicUrl : publicUrl())?.origin;
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 4096 },
    (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get("/pay/assets/pay.css", (_request, reply) =>
    reply
      .header("content-type", "text/css; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(PAY_CSS),
  );

  app.get<{ Params: { id: string } }>("/pay/:id", async (request, reply) => {
    const { id } = request.params;
    if (!UUID.test(id)) return sendHtml(reply, 404, notFoundHtml());
    const page = await kopek.paymentPage(id);
    if (page.isErr()) return sendError(reply, page.error);
    return sendHtml(reply, 200, paymentPageHtml(page.value, csrfToken(secret, id)), page.value);
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
    "/pay/:id",
    async (request, reply) => {
      const { id } = request.params;
      if (!UUID.test(id)) return sendHtml(reply, 404, notFoundHtml());
      const form = request.body ?? {};
      if (!sameOrigin(request, publicOrigin()) || !isValidCsrfToken(secret, id, form.token))
        return sendHtml(reply, 403, errorHtml(403));
      const [outcome, method = ""] = String(form.choice ?? "").split(":", 2);
      if (outcome !== "pay" && outcome !== "decline") return sendHtml(reply, 400, errorHtml(400));
      const result = await kopek.payInvoice({ invoiceId: id, method, outcome });
      if (result.isErr()) return sendError(reply, result.error);
      const { kind, page } = result.value;
      if (kind === "paid") {
        // Paid just now: on to the merchant. A second submit, or no returnUrl: the receipt.
        const target = result.value.paidNow && page.returnUrl !== null ? page.returnUrl : `/pay/${id}`;
        return reply.code(303).header("location", target).send();
      }
      const notice = kind === "declined" ? "declined" : null;
      return sendHtml(
        reply,
        kind === "declined" ? 402 : 409,
        paymentPageHtml(page, csrfToken(secret, id), notice),
        page,
      );
    },
  );
}
