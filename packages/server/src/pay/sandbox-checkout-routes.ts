import { type SandboxCheckout, sandboxNotificationOf } from "@kopek/provider-sandbox";
import type { FastifyInstance } from "fastify";
import { csrfToken, isValidCsrfToken } from "./csrf-token.js";
import { basePathOf, errorHtml, notFoundHtml } from "./page-html.js";
import { acceptForms, languageOf, sameOrigin, seeOther, sendHtml } from "./pay-routes.js";
import { sandboxCheckoutHtml } from "./sandbox-checkout-html.js";

export interface SandboxCheckoutRoutesOptions {
  readonly checkout: SandboxCheckout;
  /** Signs the forms' CSRF tokens (the payment page's secret). */
  readonly secret: Uint8Array;
  readonly publicUrl: string | (() => string);
}

const PAYMENT_ID = /^pay_[0-9a-f]{32}$/;
const tokenOf = (secret: Uint8Array, id: string) => csrfToken(secret, `sandbox-checkout:${id}`);

/**
 * The sandbox provider's own checkout page (API.md 10.3.2), where the payment page's redirect lands:
 * visibly TEST, "Succeed" or "Decline". The payer's choice is the sandbox's word about the payment;
 * Kopek learns it only by asking the sandbox (`getPayment`) when the payer comes back.
 */
export async function sandboxCheckoutRoutes(
  app: FastifyInstance,
  { checkout, secret, publicUrl }: SandboxCheckoutRoutesOptions,
) {
  const publicOrigin = () => URL.parse(typeof publicUrl === "string" ? publicUrl : publicUrl())?.origin;
  const base = () => basePathOf(typeof publicUrl === "string" ? publicUrl : publicUrl());
  acceptForms(app);

  app.get<{ Params: { id: string } }>("/sandbox/checkout/:id", async (request, reply) => {
    const language = languageOf(request);
    const payment = PAYMENT_ID.test(request.params.id) ? checkout.find(request.params.id) : null;
    if (payment === null) return sendHtml(reply, 404, notFoundHtml(language, base()));
    const token = tokenOf(secret, payment.providerPaymentId);
    return sendHtml(reply, 200, sandboxCheckoutHtml(payment, language, token, base()));
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
    "/sandbox/checkout/:id",
    async (request, reply) => {
      const { id } = request.params;
      const language = languageOf(request);
      if (!PAYMENT_ID.test(id) || checkout.find(id) === null)
        return sendHtml(reply, 404, notFoundHtml(language, base()));
      const form = request.body ?? {};
      if (
        !sameOrigin(request, publicOrigin()) ||
        !isValidCsrfToken(secret, `sandbox-checkout:${id}`, form.token)
      )
        return sendHtml(reply, 403, errorHtml(language, 403, base()));
      if (form.decision !== "succeed" && form.decision !== "decline")
        return sendHtml(reply, 400, errorHtml(language, 400, base()));
      const decided = checkout.decide(id, form.decision);
      if (decided === null) return sendHtml(reply, 404, notFoundHtml(language, base()));
      // As a real provider would: a notification to Kopek, on its own, whatever the payer does next.
      const notification = sandboxNotificationOf(decided);
      void fetch(notification.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: notification.body,
        signal: AbortSignal.timeout(5000),
      }).catch((cause) => request.log.warn({ err: cause }, "sandbox notification not delivered"));
      return seeOther(reply, decided.returnUrl, language, base());
    },
  );
}
