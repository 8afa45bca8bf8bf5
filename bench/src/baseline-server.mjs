// The baseline: bare Fastify 5 with no Kopek and no validation. It parses the same JSON body and
// answers 201 with a ~700-byte JSON, logging one line per request at info in onResponse, exactly as
// the Kopek server does (disableRequestLogging, the same pino sink: synchronous stdout).
import Fastify, { LogController } from "fastify";
import { pino } from "pino";
import { INVOICE_RESPONSE } from "./bodies.mjs";

// An object, serialised by Fastify on every request as a plain handler's answer would be.
const RESPONSE = JSON.parse(INVOICE_RESPONSE);
// The headroom scenario only: CPU work added to every request, in nanoseconds (0: bare Fastify).
const WORK_NS = BigInt(Math.round(Number(process.env.BASELINE_WORK_US ?? 0) * 1000));

const app = Fastify({
  loggerInstance: pino({ level: process.env.LOG_LEVEL ?? "info" }, pino.destination({ dest: 1, sync: true })),
  logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
});

app.addHook("onResponse", async (request, reply) => {
  request.log.info(
    {
      projectId: null,
      method: request.method,
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    },
    "request completed",
  );
});

app.get("/healthz", async () => ({ status: "ok" }));

for (const path of ["/v1/invoices", "/v1/subscriptions"]) {
  app.post(path, async (request, reply) => {
    if (typeof request.body !== "object" || request.body === null) throw new Error("no JSON body");
    if (WORK_NS > 0n) {
      const until = process.hrtime.bigint() + WORK_NS;
      while (process.hrtime.bigint() < until);
    }
    return reply.code(201).send(RESPONSE);
  });
}

await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => app.close());
