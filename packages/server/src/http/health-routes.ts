import type { Kopek, Storage } from "@kopek/core";
import type { FastifyInstance } from "fastify";
import { sendKopekResponse } from "./send-kopek-response.js";

export interface HealthRoutesOptions {
  readonly kopek: Kopek;
  readonly storage: Storage;
}

const OK = {
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: '{"status":"ok"}',
};

/** Liveness (the process answers) and readiness (storage answers too), for orchestrators. */
export async function healthRoutes(app: FastifyInstance, { kopek, storage }: HealthRoutesOptions) {
  app.get("/healthz", async (_request, reply) => sendKopekResponse(reply, OK));
  app.get("/readyz", async (request, reply) => {
    const health = await storage.checkHealth();
    if (health.isOk()) return sendKopekResponse(reply, OK);
    // A warning, not an error: an orchestrator polls this, and the cause is the storage's, not a bug.
    request.log.warn({ err: health.error }, "not ready: storage does not answer");
    return sendKopekResponse(reply, kopek.errorResponse({ code: "storage_unavailable" }, request.id));
  });
}
