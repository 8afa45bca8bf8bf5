import { randomUUID } from "node:crypto";
import { toPointer } from "@kopek/core";
import { spliceString, stringPlaces } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { buildTestApp, invoiceBody, json, subscriptionBody, type TestApp } from "./helper.js";
import { openServerTestDatabase } from "./postgres-database.js";

// Issue 38: a NUL in any field of a subscription was charged on PostgreSQL and then lost with its
// failed insert (500), while memory storage answered 201. One rule in core now refuses it first.
const { db, storage } = await openServerTestDatabase();
afterAll(() => db.close());

const receipt = {
  customer: { email: "buyer@example.com", phone: "+79991234567" },
  items: [
    {
      description: "Plan",
      quantity: "1",
      amount: { amount: "149900", currency: "RUB" },
      vatCode: 1,
      paymentSubject: "service",
      paymentMode: "full_payment",
    },
  ],
};
const metadata = { order: "42", plan: "premium" };
const bodies = {
  "/v1/subscriptions": subscriptionBody({ description: "Premium", metadata, receipt }),
  "/v1/invoices": invoiceBody({
    description: "Premium",
    comment: "thanks",
    customer: { email: "buyer@example.com", phone: "+79991234567", externalId: "cus_1" },
    metadata,
    returnUrl: "https://shop.example/return",
    receipt,
  }),
};
// NUL, and a lone surrogate: JSON.stringify escapes it ("\ud800"), so the body is valid JSON text.
const unstorable = ["\u0000", "\ud800"];

describe.each([
  ["memory", () => buildTestApp()],
  [`PostgreSQL (${db.backend})`, () => buildTestApp({ storage })],
])("on %s storage", (_name, build) => {
  it.each(Object.entries(bodies))(
    "refuses %s with NUL or a lone surrogate in any field or key: 422 invalid_character, nothing charged",
    async (path, body) => {
      const t: TestApp = await build();
      for (const place of stringPlaces(body)) {
        for (const bad of unstorable) {
          const { body: sent, path: at } = spliceString(body, place, bad);
          const answer = await t.post(path, sent, { "idempotency-key": randomUUID() });
          expect(answer.statusCode, `${toPointer(at)}: ${answer.body}`).toBe(422);
          expect(json(answer).errors).toContainEqual({
            pointer: toPointer(at),
            code: "invalid_character",
            detail: expect.any(String),
          });
        }
      }
      expect(t.ledger.countCharges()).toBe(0);
      const listed = json(await t.get(path));
      expect(listed.data).toEqual([]);
      const created = await t.post(path, body, { "idempotency-key": randomUUID() });
      expect(created.statusCode, created.body).toBe(201);
    },
  );

  it("refuses an Idempotency-Key holding a card number, as a card number in the body: nothing charged or created", async () => {
    const t: TestApp = await build();
    const key = "order 4111-1111-1111-1111";
    const refused = await t.post("/v1/subscriptions", bodies["/v1/subscriptions"], {
      "idempotency-key": key,
    });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).errors).toEqual([
      { pointer: "#/Idempotency-Key", code: "card_number_not_allowed", detail: expect.any(String) },
    ]);
    expect(refused.body).not.toContain("4111");
    expect(t.ledger.countCharges()).toBe(0);
    expect(json(await t.get("/v1/subscriptions")).data).toEqual([]);
  });
});
