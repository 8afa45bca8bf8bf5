import {
  type Kopek,
  type MethodUpdateAddress,
  methodSaveReturnPath,
  methodUpdateReturnPath,
} from "@kopek/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { redactSecrets } from "../startup/logger.js";
import { csrfToken, isValidCsrfToken } from "./csrf-token.js";
import {
  type MethodPageNotice,
  methodPageHtml,
  methodPendingHtml,
  methodReturnedHtml,
} from "./method-page-html.js";
import { pendingSaveCookie, readPendingSave } from "./method-save-cookie.js";
import { basePathOf, errorHtml, notFoundHtml } from "./page-html.js";
import {
  acceptForms,
  languageOf,
  reportedTrouble,
  sameOrigin,
  seeOther,
  sendError,
  sendHtml,
} from "./pay-routes.js";

export interface MethodRoutesOptions {
  readonly kopek: Kopek;
  /** Signs the forms' CSRF tokens. */
  readonly secret: Uint8Array;
  readonly publicUrl: string | (() => string);
}

interface Params {
  readonly project: string;
  readonly subscription: string;
  readonly id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function addressOf(params: Params): MethodUpdateAddress | null {
  const { project, subscription, id } = params;
  if (![project, subscription, id].every((part) => UUID.test(part))) return null;
  return { projectId: project, subscriptionId: subscription, updateId: id };
}

/** The form's CSRF token: bound to the link, apart from any invoice's. */
const tokenSubject = (at: MethodUpdateAddress) => `method-update:${at.updateId}`;

/**
 * The method-update page (API.md 11.5): GET /method/{projectId}/{subscriptionId}/{id} offers the
 * methods to save; POST (a method) makes a verification payment at the provider with the method saved
 * and sends the payer there with 303; GET …/return, where the provider sends the payer back, asks the
 * provider and shows the outcome. HTML only, no script; nothing here settles anything: core does, on
 * the provider's word.
 */
export async function methodRoutes(app: FastifyInstance, { kopek, secret, publicUrl }: MethodRoutesOptions) {
  const url = () => (typeof publicUrl === "string" ? publicUrl : publicUrl());
  const publicOrigin = () => URL.parse(url())?.origin;
  const base = () => basePathOf(url());
  acceptForms(app);

  async function sendPage(
    request: FastifyRequest,
    reply: FastifyReply,
    at: MethodUpdateAddress,
    status: number,
    notice: MethodPageNotice = null,
  ) {
    const language = languageOf(request);
    const page = await kopek.methodUpdates.page(at);
    if (page.isErr()) return sendError(reply, language, page.error, base());
    const html = methodPageHtml(page.value, language, csrfToken(secret, tokenSubject(at)), notice, base());
    return sendHtml(reply, status, html, page.value.confirmationOrigins);
  }

  app.get<{ Params: Params }>("/method/:project/:subscription/:id", async (request, reply) => {
    const at = addressOf(request.params);
    if (at === null) return sendHtml(reply, 404, notFoundHtml(languageOf(request), base()));
    return sendPage(request, reply, at, 200);
  });

  app.post<{ Params: Params; Body: Record<string, string> | undefined }>(
    "/method/:project/:subscription/:id",
    async (request, reply) => {
      const at = addressOf(request.params);
      const language = languageOf(request);
      if (at === null) return sendHtml(reply, 404, notFoundHtml(language, base()));
      const form = request.body ?? {};
      if (!sameOrigin(request, publicOrigin()) || !isValidCsrfToken(secret, tokenSubject(at), form.token))
        return sendHtml(reply, 403, errorHtml(language, 403, base()));
      if (typeof form.method !== "string" || form.method === "")
        return sendHtml(reply, 400, errorHtml(language, 400, base()));
      const started = await kopek.methodUpdates.start({ ...at, method: form.method });
      if (started.isErr()) {
        const trouble = reportedTrouble(request, started.error, "method check", {
          subscriptionId: at.subscriptionId,
          methodUpdateId: at.updateId,
          method: redactSecrets(form.method),
        });
        if (trouble === null) return sendError(reply, language, started.error, base());
        return sendPage(request, reply, at, trouble.status, trouble.notice);
      }
      if (started.value.kind === "confirm") return seeOther(reply, started.value.url, language, base());
      if (started.value.kind === "confirm_save") {
        // A provider that sends the payer to a fixed page of its own (T-Bank) comes back to /method/return:
        // this cookie tells it which link and save the payer was at.
        reply.header("set-cookie", pendingSaveCookie({ ...at, saveId: started.value.save.id }, url()));
        return seeOther(reply, started.value.url, language, base());
      }
      return sendPage(request, reply, at, started.value.page.state === "completed" ? 200 : 409);
    },
  );

  app.get<{ Params: Params; Querystring: { payment?: string; save?: string } }>(
    "/method/:project/:subscription/:id/return",
    async (request, reply) => {
      const at = addressOf(request.params);
      const language = languageOf(request);
      const paymentId = request.query.payment ?? "";
      const saveId = request.query.save;
      if (at !== null && saveId !== undefined && UUID.test(saveId)) {
        const checked = await kopek.methodUpdates.checkSave({ ...at, saveId });
        if (checked.isErr()) return sendError(reply, language, checked.error, base());
        const { state, page } = checked.value;
        if (state === "failed") return sendPage(request, reply, at, 200, "declined");
        if (state === "saved") return sendPage(request, reply, at, 200);
        const again = `${base()}${methodSaveReturnPath(at.projectId, at.subscriptionId, at.updateId, saveId)}`;
        return sendHtml(reply, 202, methodPendingHtml(page, language, again, base(), "save"));
      }
      if (at === null || !UUID.test(paymentId)) return sendHtml(reply, 404, notFoundHtml(language, base()));
      const checked = await kopek.methodUpdates.check({ ...at, paymentId });
      if (checked.isErr()) return sendError(reply, language, checked.error, base());
      const { payment, page } = checked.value;
      if (payment.status === "canceled") return sendPage(request, reply, at, 200, "declined");
      if (payment.status === "succeeded")
        return sendPage(request, reply, at, 200, page.state === "open" ? "notSaved" : null);
      const again = `${base()}${methodUpdateReturnPath(at.projectId, at.subscriptionId, at.updateId, paymentId)}`;
      return sendHtml(reply, 202, methodPendingHtml(page, language, again, base()));
    },
  );

  // Where a provider that returns payers to a fixed address of its own settings sends them (T-Bank's
  // "Success Add Card URL" and "Fail Add Card URL"): back to the link's page the cookie names, which asks
  // the provider how the save stands. Without the cookie (another browser), a page that says thank you.
  app.get("/method/return", async (request, reply) => {
    const language = languageOf(request);
    const pending = readPendingSave(request.headers.cookie);
    if (pending === null) return sendHtml(reply, 200, methodReturnedHtml(language, base()));
    const { projectId, subscriptionId, updateId, saveId } = pending;
    return seeOther(
      reply,
      `${url()}${methodSaveReturnPath(projectId, subscriptionId, updateId, saveId)}`,
      language,
      base(),
    );
  });
}
