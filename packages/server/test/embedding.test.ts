import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createKopek, type Storage } from "@kopek/core";
import { createSandboxCheckout, createSandboxLedger } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import express from "express";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { startKopekBackground } from "../src/background.js";
import { createKopekHandler, kopekFastifyPlugin } from "../src/embedding.js";
import { requestIdFor } from "../src/http/request-id.js";
import { createProviderRegistry } from "../src/startup/providers.js";
import { projectWithEndpoint } from "./pay-fixture.js";
import { startReceiver } from "./webhook-receiver.js";
import { until } from "./yookassa-fixture.js";

// Issue 18 part 2: Kopek embedded in someone else's server — a Fastify app with the plugin under a
// prefix, a bare node:http server and an Express app with the request handler — behaves as the
// reference server does: idempotent creates, `?limit=`, Kopek's own answers to bad bodies (after
// authentication), the payment page paid through the sandbox, and the webhook delivered by the
// background jobs started with one call.
// biome-ignore lint/suspicious/noExplicitAny: responses are read as plain JSON; the tests assert their shapes.
type Json = Record<string, any>;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Embedding {
  readonly storage: Storage;
  /** Where Kopek is reached, prefix included. */
  readonly base: string;
}

/** Kopek's parts over fresh memory storage, for an embedding whose base URL is known once it listens. */
function kopekParts(base: () => string) {
  const storage = createMemoryStorage();
  const ledger = createSandboxLedger();
  const providerFor = createProviderRegistry({ ledger });
  const kopek = createKopek({ storage, providerFor, publicUrl: base });
  const routes = { kopek, storage, publicUrl: base, sandboxCheckout: createSandboxCheckout(ledger) };
  const background = startKopekBackground({ storage, providerFor, publicUrl: base, intervalMs: 20 });
  closers.push(() => background.stop());
  return { storage, providerFor, kopek, routes };
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function exercise({ storage, base }: Embedding) {
  const receiver = await startReceiver();
  closers.push(() => receiver.close());
  const { apiKey, project } = await projectWithEndpoint(storage, "Embedded shop", `${receiver.url}/hooks`);
  const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body }),
    });
  const invoice = JSON.stringify({ amount: { amount: "149900", currency: "RUB" }, description: "Coffee" });

  const key = randomUUID();
  const created = await send("POST", "/v1/invoices", invoice, { "idempotency-key": key });
  expect(created.status).toBe(201);
  const paid = (await created.json()) as Json;
  expect(paid.paymentUrl).toBe(`${base}/pay/${project.id}/${paid.id}`);
  const replayed = await send("POST", "/v1/invoices", invoice, { "idempotency-key": key });
  expect([replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
  for (let i = 0; i < 2; i++)
    expect((await send("POST", "/v1/invoices", invoice, { "idempotency-key": randomUUID() })).status).toBe(
      201,
    );
  const page = (await (await send("GET", "/v1/invoices?limit=1")).json()) as Json;
  expect(page.data).toHaveLength(1);
  expect(page.nextCursor).toEqual(expect.any(String));

  // Bad JSON: a wrong key is still a 401 first; with the right key, Kopek's own problem document.
  const badKey = await send("POST", "/v1/invoices", "{", {
    authorization: "Bearer kopek_wrong",
    "idempotency-key": randomUUID(),
  });
  expect(badKey.status).toBe(401);
  const badBody = await send("POST", "/v1/invoices", "{", { "idempotency-key": randomUUID() });
  expect([
    badBody.status,
    badBody.headers.get("content-type"),
    ((await badBody.json()) as Json).code,
  ]).toEqual([400, "application/problem+json", "invalid_json"]);

  // Paid through the page and the sandbox's checkout; the provider's notification settles it.
  // As a browser does: the form's own action and the page's stylesheet, resolved against the page.
  const form = async (url: string, fields: Record<string, string>) => {
    const html = await (await fetch(url)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? "", url).href;
    expect(action).toBe(url);
    const stylesheet = new URL(/<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1] ?? "", url);
    expect((await fetch(stylesheet)).headers.get("content-type")).toBe("text/css; charset=utf-8");
    return fetch(action, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(base).origin },
      body: new URLSearchParams({ token, ...fields }).toString(),
    });
  };
  const chosen = await form(paid.paymentUrl, { method: "card" });
  expect(chosen.status).toBe(303);
  const checkout = chosen.headers.get("location") ?? "";
  expect(checkout.startsWith(`${base}/sandbox/checkout/`)).toBe(true);
  expect((await form(checkout, { decision: "succeed" })).status).toBe(303);
  const status = async () => ((await (await send("GET", `/v1/invoices/${paid.id}`)).json()) as Json).status;
  expect(await until(async () => (await status()) === "paid")).toBe(true);

  // The background jobs deliver the webhook.
  expect(await until(() => receiver.received.some((hook) => hook.body.includes('"invoice.paid"')))).toBe(
    true,
  );
}

describe("embedding", () => {
  it("a Fastify app with kopekFastifyPlugin under /kopek keeps its own routes and parsers", async () => {
    let base = "";
    const parts = kopekParts(() => base);
    const app = Fastify({ genReqId: requestIdFor, requestIdHeader: false });
    app.post("/echo", async (request) => ({ youSent: request.body }));
    await app.register(kopekFastifyPlugin, { ...parts.routes, publicUrl: () => base, prefix: "/kopek" });
    await app.listen({ host: "127.0.0.1", port: 0 });
    closers.push(() => app.close());
    base = `http://127.0.0.1:${portOf(app.server)}/kopek`;
    expect(app.kopek).toBe(parts.kopek);

    await exercise({ storage: parts.storage, base });

    // The host's JSON parser and 404 are its own; Kopek's are inside /kopek only.
    const echoed = await fetch(`${new URL(base).origin}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await echoed.json()).toEqual({ youSent: { a: 1 } });
    const hostMissing = await fetch(`${new URL(base).origin}/nope`);
    expect([hostMissing.status, hostMissing.headers.get("content-type")]).toEqual([
      404,
      "application/json; charset=utf-8",
    ]);
    const kopekMissing = await fetch(`${base}/nope`);
    expect([kopekMissing.status, kopekMissing.headers.get("content-type")]).toEqual([
      404,
      "application/problem+json",
    ]);
  });

  it("createKopekHandler serves a bare node:http server", async () => {
    let base = "";
    const parts = kopekParts(() => base);
    const handler = await createKopekHandler({ ...parts.routes, publicUrl: () => base });
    const server = createServer(handler.handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(
      () => new Promise((resolve) => server.close(resolve)),
      () => handler.close(),
    );
    base = `http://127.0.0.1:${portOf(server)}`;
    await exercise({ storage: parts.storage, base });
  });

  it("createKopekHandler mounted in Express under /kopek, beside the app's own JSON routes", async () => {
    let base = "";
    const parts = kopekParts(() => base);
    const handler = await createKopekHandler({ ...parts.routes, publicUrl: () => base });
    const app = express();
    app.use("/kopek", handler.handle);
    app.post("/echo", express.json(), (request, response) => {
      response.json({ youSent: request.body });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    closers.push(
      () => new Promise((resolve) => server.close(resolve)),
      () => handler.close(),
    );
    base = `http://127.0.0.1:${portOf(server)}/kopek`;
    await exercise({ storage: parts.storage, base });
    const echoed = await fetch(`${new URL(base).origin}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await echoed.json()).toEqual({ youSent: { a: 1 } });
  });
});
