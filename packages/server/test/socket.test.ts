import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildTestApp, subscriptionBody, type TestApp } from "./helper.js";

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
