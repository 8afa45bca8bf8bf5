import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, json, type TestApp } from "./helper.js";

const t: TestApp = await buildTestApp();
let port = 0;
beforeAll(async () => {
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.app.close());

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request over real HTTP, with whatever method Node's parser lets through. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, method, path, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

const expect405 = (answer: Answer, allow: string) => {
  expect(answer.status).toBe(405);
  expect(answer.headers.allow).toBe(allow);
  expect(answer.headers["content-type"]).toBe("application/problem+json");
  expect(answer.headers["x-request-id"]).toBeTruthy();
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  const problem = JSON.parse(answer.body) as { code: string; status: number };
  expect(problem).toMatchObject({ code: "method_not_allowed", status: 405 });
};

describe("methods the API does not serve on /v1 (issue 38 part 4)", () => {
  const auth = () => ({ authorization: `Bearer ${t.apiKey}` });

  it("QUERY, with or without a key or a Content-Type, is 405 with Allow, never 500", async () => {
    expect405(await send("QUERY", "/v1/invoices", auth()), "GET, POST");
    expect405(await send("QUERY", "/v1/invoices"), "GET, POST");
    expect405(
      await send("QUERY", "/v1/payments?limit=2", { ...auth(), "content-type": "application/json" }),
      "GET",
    );
  });

  it("methods Fastify routes (PUT, PATCH, OPTIONS, TRACE) and ones it does not (PROPFIND, MKCOL, SEARCH) are 405", async () => {
    const id = crypto.randomUUID();
    for (const method of ["PUT", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "MKCOL", "SEARCH", "LOCK"]) {
      expect405(await send(method, "/v1/invoices", auth()), "GET, POST");
      expect405(await send(method, `/v1/invoices/${id}`), "GET");
      expect405(await send(method, `/v1/invoices/${id}/cancel`, auth()), "POST");
      expect405(await send(method, "/v1/nowhere"), "DELETE, GET, POST");
    }
    expect405(await send("PUT", `/v1/webhook-endpoints/${id}`), "DELETE, GET, POST");
  });

  it("DELETE, served on a webhook endpoint (API.md 12), is answered elsewhere as an unknown route is", async () => {
    const id = crypto.randomUUID();
    expect((await send("DELETE", `/v1/invoices/${id}`)).status).toBe(401);
    const deleted = await send("DELETE", `/v1/invoices/${id}`, auth());
    expect(deleted.status).toBe(404);
    expect((await send("DELETE", `/v1/webhook-endpoints/${id}`, auth())).status).toBe(404);
  });

  it("through inject too, and the methods the API serves are answered as before", async () => {
    const query = await t.app.inject({ method: "QUERY" as "GET", url: "/v1/invoices", headers: auth() });
    expect(query.statusCode).toBe(405);
    expect(query.headers.allow).toBe("GET, POST");
    expect(json(query).code).toBe("method_not_allowed");
    expect((await t.app.inject({ method: "GET", url: "/v1/invoices", headers: auth() })).statusCode).toBe(
      200,
    );
    expect((await send("GET", "/v1/invoices")).status).toBe(401);
    expect((await send("PROPFIND", "/elsewhere")).status).toBe(404);
  });
});
