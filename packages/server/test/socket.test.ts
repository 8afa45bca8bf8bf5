import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { connectionTaken } from "../src/http/end-of-turn.js";
import { buildTestApp, invoiceBody, subscriptionBody, type TestApp } from "./helper.js";

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.app.close());

const send = (headers: Record<string, string>, body: string) =>
  fetch(`${baseUrl}/v1/subscriptions`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json", ...headers },
    body,
  });

test("25 concurrent identical requests: one 201, the rest 200 or 409, one charge", async () => {
  const body = JSON.stringify(subscriptionBody({ providerMethodRef: "tok_concurrent" }));
  const responses = await Promise.all(
    Array.from({ length: 25 }, () => send({ "idempotency-key": "race" }, body)),
  );
  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  expect(statuses.every((status) => [200, 201, 409].includes(status))).toBe(true);
  const bodies = await Promise.all(responses.map((response) => response.text()));
  const created = bodies[statuses.indexOf(201)];
  statuses.forEach((status, i) => {
    if (status === 200) expect(bodies[i]).toBe(created);
  });
  expect(t.ledger.countCharges()).toBe(1);
});

test("80 clients connecting at once, each on its own connection, are all answered, each once", async () => {
  // While connections arrive, each turn answers a share of the waiting requests (http/end-of-turn.ts).
  const told = t.app.server.listeners("connection").filter((listener) => listener === connectionTaken);
  expect(told).toHaveLength(1);
  const create = (n: number) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(invoiceBody());
      const sent = request(
        `${baseUrl}/v1/invoices`,
        {
          method: "POST",
          agent: false, // a new connection for every request
          headers: {
            authorization: `Bearer ${t.apiKey}`,
            "content-type": "application/json",
            "idempotency-key": `burst-${n}`,
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      sent.on("error", reject);
      sent.end(body);
    });
  const answers = await Promise.all(Array.from({ length: 80 }, (_, n) => create(n)));
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
  const ids = answers.map((answer) => (JSON.parse(answer.body) as { id: string }).id);
  expect(new Set(ids).size).toBe(80);
});

test("over the wire: exact content types, and 401 for a bad key even with a 70 KiB body", async () => {
  const ok = await send({ "idempotency-key": "wire-1" }, JSON.stringify(subscriptionBody()));
  expect(ok.status).toBe(201);
  expect(ok.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const big = await fetch(`${baseUrl}/v1/invoices`, {
    method: "POST",
    headers: {
      authorization: "Bearer kopek_nope",
      "content-type": "application/json",
      "idempotency-key": "x",
    },
    body: JSON.stringify({ pad: "x".repeat(70 * 1024) }),
  });
  expect(big.status).toBe(401);
  expect(big.headers.get("content-type")).toBe("application/problem+json");
  expect(big.headers.get("www-authenticate")).toBe("Bearer");
});

test.each([
  ["a 70 KiB body", JSON.stringify({ pad: "x".repeat(70 * 1024) }), 413, "payload_too_large"],
  ["broken JSON", '{"amount":', 400, "invalid_json"],
])("over the wire with a valid key: %s", async (_name, body, status, code) => {
  const response = await send({ "idempotency-key": `wire-${status}` }, body);
  expect(response.status).toBe(status);
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(((await response.json()) as { code: string }).code).toBe(code);
});
