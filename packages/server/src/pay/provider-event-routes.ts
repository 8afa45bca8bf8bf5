import type { Kopek, KopekError } from "@kopek/core";
import type { FastifyInstance } from "fastify";
import { redactSecrets } from "../startup/logger.js";

export interface ProviderEventRoutesOptions {
  readonly kopek: Kopek;
}

/** What a refused notification is answered with: the provider sees a failure, nothing changed. */
function statusOf(error: KopekError): number {
  switch (error.code) {
    case "not_found":
      return 404;
    case "bad_request":
      return 400;
    // The provider retries a notification it could not deliver; reconciliation settles it anyway.
    case "provider_unavailable":
    case "provider_error":
    case "storage_unavailable":
      return 503;
    default:
      return 500;
  }
}

/**
 * `POST /provider-events/{projectId}/{providerKind}` (API.md 10.4): outside /v1, no API key; core
 * checks the notification with the provider and answers what the provider expects. Every refusal is
 * logged (the body is not: it is the provider's, and may carry personal data).
 */
export async function providerEventRoutes(app: FastifyInstance, { kopek }: ProviderEventRoutesOptions) {
  app.post<{ Params: { projectId: string; kind: string } }>(
    "/provider-events/:projectId/:kind",
    async (request, reply) => {
      const { projectId, kind } = request.params;
      const body = typeof request.body === "string" ? request.body : "";
      const handled = await kopek.providerNotification({
        projectId,
        providerKind: kind,
        notification: { headers: request.headers, body },
      });
      if (handled.isOk()) {
        const { status, contentType, body: answer } = handled.value;
        return reply.code(status).header("content-type", contentType).send(answer);
      }
      const status = statusOf(handled.error);
      request.log.warn(
        // Both come from the URL, so from anyone: redacted like any other caller-controlled value.
        { projectId: redactSecrets(projectId), providerKind: redactSecrets(kind), code: handled.error.code },
        "provider notification refused",
      );
      return reply.code(status).header("content-type", "text/plain; charset=utf-8").send(handled.error.code);
    },
  );
}
