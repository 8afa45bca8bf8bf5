import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  subscriptionBody,
} from "./kopek-harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export function registerIdempotencyTests(options: KopekContractOptions): void {
  describe("idempotency", () => {
    it("replays the stored response byte for byte with 200 and Idempotent-Replayed", async () => {
      const h = await createHarness(options);
      const first = await h.call("/v1/subscriptions", subscriptionBody(), "key-1");
      const reordered = {
        providerMethodRef: "pm_contract_card",
        method: "card",
        period: { count: 1, unit: "month" },
        amount: { currency: "RUB", amount: "149900" },
      };
      const again = await h.call("/v1/subscriptions", reordered, "key-1");
      expect(first.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(again.headers.location).toBe(first.headers.location);
      expect(h.chargeCalls()).toBe(1);
    });

    it("replays an identical retry and a reformatted one alike, but reads every retry's media type and size", async () => {
      const h = await createHarness(options);
      const send = (body: string, contentType = "application/json") =>
        h.kopek.handle({
          method: "POST",
          url: "/v1/invoices",
          headers: {
            authorization: `Bearer ${h.apiKey}`,
            "idempotency-key": "bytes",
            "content-type": contentType,
          },
          body,
        });
      const text = JSON.stringify(invoiceBody());
      const first = await send(text);
      expect(first.status).toBe(201);
      const answers = [await send(text), await send(JSON.stringify(invoiceBody(), null, 2))];
      for (const again of answers) {
        expect(again.status).toBe(200);
        expect(again.body).toBe(first.body);
        expect(again.headers["idempotent-replayed"]).toBe("true");
      }
      const plain = await send(text, "text/plain");
      expect(plain.status).toBe(415);
      expect(json(plain).code).toBe("unsupported_media_type");
      const large = await send(`${text}${" ".repeat(64 * 1024)}`);
      expect(large.status).toBe(413);
      const other = await send(JSON.stringify({ ...invoiceBody(), comment: "another" }));
      expect(json(other).code).toBe("idempotency_key_reused");
      expect((await h.storage.inspect()).invoices ?? []).toHaveLength(1);
    });

    it("answers a retry from its record before validating or building it, as text or as bytes", async () => {
      const h = await createHarness(options);
      const text = JSON.stringify(invoiceBody());
      const send = (body: string | Uint8Array) =>
        h.kopek.handle({
          method: "POST",
          url: "/v1/invoices",
          headers: {
            authorization: `Bearer ${h.apiKey}`,
            "idempotency-key": "bytes-or-text",
            "content-type": "application/json",
          },
          body,
        });
      const first = await send(new TextEncoder().encode(text));
      expect(first.status).toBe(201);
      // Storage whose lookups are local answers these from the first lookup: the body is never
      // validated or built into an invoice, so no write reaches storage.
      const { storage } = h;
      const createOnce = storage.createOnce.bind(storage);
      let writes = 0;
      storage.createOnce = (record, write) => {
        writes += 1;
        return createOnce(record, write);
      };
      const reformatted = JSON.stringify(invoiceBody(), null, 2);
      const retries = [await send(Buffer.from(text)), await send(text), await send(reformatted)];
      for (const again of retries) {
        expect(again.status).toBe(200);
        expect(again.body).toBe(first.body);
        expect(again.headers["idempotent-replayed"]).toBe("true");
      }
      expect(writes).toBe(storage.lookupsAreLocal ? 0 : retries.length);
      const other = await send(Buffer.from(JSON.stringify({ ...invoiceBody(), comment: "another" })));
      expect(json(other).code).toBe("idempotency_key_reused");
    });

    it("refuses a lone surrogate, and does not take it for U+FFFD, the same bytes in UTF-8", async () => {
      const h = await createHarness(options);
      const send = (comment: string, key = "surrogate") =>
        h.kopek.handle({
          method: "POST",
          url: "/v1/invoices",
          headers: {
            authorization: `Bearer ${h.apiKey}`,
            "idempotency-key": key,
            "content-type": "application/json",
          },
          // Raw in the text, as an embedding that hands Kopek a string may send it.
          body: JSON.stringify({ ...invoiceBody(), comment: "x" }).replace('"x"', `"${comment}"`),
        });
      const replacement = await send("note \ufffd");
      expect(replacement.status).toBe(201);
      // Raw in the text, it is not Unicode: 400. Escaped, it is JSON that storage cannot hold: 422.
      const raw = await send("note \ud800");
      expect([raw.status, json(raw).code]).toEqual([400, "invalid_json"]);
      for (const lone of ["note \\ud800", "\\udfff", "a\\ud83d"]) {
        expect((await send(lone)).status).toBe(422);
        const fresh = json(await send(lone, `fresh ${lone}`));
        expect(fresh.errors).toEqual([
          { pointer: "#/comment", code: "invalid_character", detail: expect.any(String) },
        ]);
      }
      expect((await send("note \ufffd")).status).toBe(200);
      expect((await send("\\ud83d\\ude00")).status).toBe(422);
    });

    it("executes 50 concurrent identical requests exactly once", async () => {
      const h = await createHarness(options);
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => h.call("/v1/subscriptions", subscriptionBody(), "same-key")),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
      expect(h.chargeCalls()).toBe(1);
      expect(h.provider.chargesMade()).toBe(1);
      for (const r of responses.filter((x) => x.status === 409)) {
        expect(json(r).code).toBe("idempotency_request_in_progress");
        expect(r.headers["retry-after"]).toBe("1");
      }
    });

    it("refuses the same key with another body or another endpoint", async () => {
      const h = await createHarness(options);
      await h.call("/v1/invoices", invoiceBody(), "key-2");
      const otherBody = await h.call("/v1/invoices", { amount: { amount: "1", currency: "RUB" } }, "key-2");
      const otherEndpoint = await h.call("/v1/subscriptions", subscriptionBody(), "key-2");
      expect(otherBody.status).toBe(422);
      expect(json(otherBody).code).toBe("idempotency_key_reused");
      expect(json(otherEndpoint).code).toBe("idempotency_key_reused");
    });

    it("keeps keys apart between projects", async () => {
      const a = await createHarness(options);
      const b = await createHarness({ ...options, createStorage: () => a.storage });
      const first = await a.call("/v1/invoices", invoiceBody(), "shared");
      const second = await b.call("/v1/invoices", { amount: { amount: "7", currency: "RUB" } }, "shared");
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(json(first).id).not.toBe(json(second).id);
    });

    it("stores and replays a domain refusal (method_unavailable)", async () => {
      const h = await createHarness(options, { storedMethodCharge: false });
      const first = await h.call("/v1/subscriptions", subscriptionBody(), "refused");
      const again = await h.call("/v1/subscriptions", subscriptionBody(), "refused");
      expect(first.status).toBe(422);
      expect(again.status).toBe(422);
      expect(again.body).toBe(first.body);
      expect(again.headers["idempotent-replayed"]).toBe("true");
    });

    it("does not store a validation failure: the same key then works with a valid body", async () => {
      const h = await createHarness(options);
      const bad = await h.call("/v1/invoices", { amount: { amount: "0100", currency: "RUB" } }, "fix-me");
      const good = await h.call("/v1/invoices", invoiceBody(), "fix-me");
      expect(bad.status).toBe(422);
      expect(json(bad).code).toBe("validation_failed");
      expect(good.status).toBe(201);
    });

    it("releases the key after a provider outage, and the retry charges exactly once", async () => {
      const h = await createHarness(options);
      h.injectChargeFaults("outage");
      const failed = await h.call("/v1/subscriptions", subscriptionBody(), "outage");
      expect(failed.status).toBe(503);
      expect(json(failed).code).toBe("provider_unavailable");
      const retried = await h.call("/v1/subscriptions", subscriptionBody(), "outage");
      expect(retried.status).toBe(201);
      expect(h.provider.chargesMade()).toBe(1);
    });

    it("never charges twice when a crashed execution is taken over after its lease", async () => {
      const h = await createHarness(options, { leaseMs: 10_000 });
      h.injectChargeFaults("charge-then-hang");
      void h.call("/v1/subscriptions", subscriptionBody(), "crash");
      await waitFor(() => h.chargeCalls() === 1 && h.provider.chargesMade() === 1);
      const during = await h.call("/v1/subscriptions", subscriptionBody(), "crash");
      expect(during.status).toBe(409);
      h.clock.advance(10_001);
      const after = await h.call("/v1/subscriptions", subscriptionBody(), "crash");
      expect(after.status).toBe(201);
      expect(h.chargeCalls()).toBe(2);
      expect(h.provider.chargesMade()).toBe(1);
    });

    it("forgets a key after 24 hours: the same key executes as new", async () => {
      const h = await createHarness(options);
      const first = await h.call("/v1/invoices", invoiceBody(), "daily");
      h.clock.advance(DAY_MS);
      const later = await h.call("/v1/invoices", invoiceBody(), "daily");
      expect(later.status).toBe(201);
      expect(json(later).id).not.toBe(json(first).id);
    });

    it("requires a valid Idempotency-Key and authenticates first", async () => {
      const h = await createHarness(options);
      const missing = await h.kopek.handle({
        method: "POST",
        url: "/v1/invoices",
        headers: { authorization: `Bearer ${h.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(invoiceBody()),
      });
      const tooLong = await h.call("/v1/invoices", invoiceBody(), "k".repeat(256));
      const nonAscii = await h.call("/v1/invoices", invoiceBody(), "ключ");
      const unauthenticated = await h.kopek.handle({
        method: "POST",
        url: "/v1/invoices",
        headers: { "content-type": "application/json" },
        body: "not even JSON",
      });
      expect(json(missing).code).toBe("idempotency_key_missing");
      expect([tooLong.status, json(tooLong).code]).toEqual([400, "idempotency_key_invalid"]);
      expect(json(nonAscii).code).toBe("idempotency_key_invalid");
      expect([unauthenticated.status, unauthenticated.headers["www-authenticate"]]).toEqual([401, "Bearer"]);
      expect((await h.call("/v1/invoices", invoiceBody(), "k".repeat(255))).status).toBe(201);
    });

    it("refuses a key revoked after it was used (and remembered) on its very next request, whatever it asks", async () => {
      const h = await createHarness(options);
      const { hashApiKey } = await import("@kopek/core");
      const created = await h.call("/v1/invoices", invoiceBody(), "before-revocation");
      expect(created.status).toBe(201);
      const id = json(created).id as string;
      (await h.storage.revokeApiKey(hashApiKey(h.apiKey), h.clock.now()))._unsafeUnwrap();
      const answers = [
        await h.call("/v1/invoices", invoiceBody(), "after-revocation"), // a new write: the claim refuses it
        await h.call("/v1/invoices", invoiceBody(), "before-revocation"), // a replay: refused too
        await h.call("/v1/invoices", { amount: "not money" }, "invalid-body"), // would be 422
        await h.call("/v1/invoices", invoiceBody(), "k".repeat(256)), // would be 400
        await h.call(`/v1/invoices/${id}/cancel`, undefined, "cancel"),
        await h.get(`/v1/invoices/${id}`),
        await h.get("/v1/invoices"),
        await h.get("/v1/no-such-thing"), // would be 404
      ];
      expect(answers.map((answer) => answer.status)).toEqual(Array(answers.length).fill(401));
      expect(answers.map((answer) => json(answer).code)).toEqual(Array(answers.length).fill("unauthorized"));
      const invoices = (await h.storage.inspect()).invoices ?? [];
      expect(invoices.map((row) => row.status)).toEqual(["created"]);
    });

    it("refuses a revoked key", async () => {
      const h = await createHarness(options);
      const { hashApiKey } = await import("@kopek/core");
      (await h.storage.revokeApiKey(hashApiKey(h.apiKey), h.clock.now()))._unsafeUnwrap();
      const response = await h.call("/v1/invoices", invoiceBody());
      expect(response.status).toBe(401);
      expect(json(response).code).toBe("unauthorized");
    });
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
