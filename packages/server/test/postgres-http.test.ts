import { randomUUID } from "node:crypto";
import { createKopek, hashApiKey } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createPostgresStorage, createTokenCipher } from "@kopek/storage-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { buildTestApp, invoiceBody, json, PUBLIC_URL, subscriptionBody, uniqueMethodRef } from "./helper.js";
import { dumpDatabase, openServerTestDatabase } from "./postgres-database.js";

// The HTTP contract in one process on PostgreSQL storage: a real server when one answers, else PGlite.
const { db, key, storage } = await openServerTestDatabase();
afterAll(() => db.close());
const t = await buildTestApp({ storage });

const CARD_NUMBER = "4111 1111 1111 1111"; // Luhn-valid
const secretRef = uniqueMethodRef("pm_secret");
const digitRef = "tok_4111111111111112"; // a digit run that fails Luhn: allowed, and still secret
const ordered = { zeta: "1", alpha: "2", mid: "3" };

describe(`the server on PostgreSQL (${db.backend})`, () => {
  it("creates a subscription and an invoice, and replays each byte for byte with 200", async () => {
    for (const [path, body] of [
      ["/v1/subscriptions", subscriptionBody({ providerMethodRef: secretRef, metadata: ordered })],
      ["/v1/invoices", invoiceBody({ metadata: ordered })],
    ] as const) {
      const idempotencyKey = randomUUID();
      const created = await t.post(path, body, { "idempotency-key": idempotencyKey });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers.location).toBe(`${path}/${json(created).id}`);
      expect(created.body).toContain(`"metadata":${JSON.stringify(ordered)}`);
      const replayed = await t.post(path, body, { "idempotency-key": idempotencyKey });
      expect(replayed.statusCode).toBe(200);
      expect(replayed.headers["idempotent-replayed"]).toBe("true");
      expect(replayed.body).toBe(created.body);
    }
    expect(
      (await t.post("/v1/subscriptions", subscriptionBody({ providerMethodRef: digitRef }))).statusCode,
    ).toBe(201);
    expect(t.ledger.countCharges()).toBe(2);
    const invoice = json(await t.post("/v1/invoices", invoiceBody()));
    expect(invoice.paymentUrl).toBe(`${PUBLIC_URL}/pay/${t.project.id}/${invoice.id}`);
    const stored = (await storage.findInvoice(t.project.id, invoice.id))._unsafeUnwrap();
    expect(stored?.id).toBe(invoice.id);
  });

  it("answers 401 for a missing, unknown or revoked key, and 422 for invalid bodies", async () => {
    const noKey = await t.inject({ method: "POST", url: "/v1/invoices", payload: invoiceBody() });
    expect(noKey.statusCode).toBe(401);
    const body = subscriptionBody({ providerMethodRef: `tok ${CARD_NUMBER}` });
    const card = await t.post("/v1/subscriptions", body);
    expect(card.statusCode).toBe(422);
    expect(json(card).errors).toEqual([expect.objectContaining({ code: "card_number_not_allowed" })]);
    const invalid = await t.post("/v1/invoices", { amount: { amount: "0100", currency: "rub" }, typo: 1 });
    expect(json(invalid)).toMatchObject({ status: 422, code: "validation_failed" });
    expect(json(invalid).errors).toHaveLength(3);

    const other = await buildTestApp({ storage });
    expect((await other.post("/v1/invoices", invoiceBody())).statusCode).toBe(201);
    (await storage.revokeApiKey(hashApiKey(other.apiKey), new Date()))._unsafeUnwrap();
    expect((await other.post("/v1/invoices", invoiceBody())).statusCode).toBe(401);
  });

  it("leaves no API key, card number or plaintext method ref in a dump of the database", async () => {
    const { how, text } = await dumpDatabase(db);
    console.info(`database dump by ${how}: ${text.length} characters`);
    expect(text).toContain(hashApiKey(t.apiKey)); // the dump really holds the tables
    expect(text).not.toContain(t.apiKey);
    expect(text).not.toMatch(/kopek_[0-9A-Za-z]{38}/);
    for (const number of [CARD_NUMBER, CARD_NUMBER.replaceAll(" ", "")]) expect(text).not.toContain(number);
    expect(text).not.toContain(secretRef);
    expect(text).not.toContain(digitRef);
    expect(text).not.toContain(key.toString("base64"));
  });

  it("/readyz is 200 while the database answers and 503 when it does not", async () => {
    expect((await t.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    // The same storage over a database that does not answer (nothing listens on port 1).
    const unreachable = new pg.Pool({
      connectionString: "postgres://postgres@127.0.0.1:1/none",
      connectionTimeoutMillis: 1000,
    });
    const encryption = createTokenCipher({ keys: [{ id: "k", key }], currentKeyId: "k" });
    const offline = createPostgresStorage({ pool: unreachable, encryption });
    const kopek = createKopek({
      storage: offline,
      providerFor: () => createSandboxProvider(),
      publicUrl: PUBLIC_URL,
    });
    const app = await buildApp({ kopek, storage: offline, publicUrl: PUBLIC_URL });
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(json(ready).code).toBe("storage_unavailable");
    await app.close();
    await unreachable.end();
  });
});
