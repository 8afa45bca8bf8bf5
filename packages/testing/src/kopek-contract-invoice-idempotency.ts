import { canonicalJson, fingerprintRequest } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { createHarness, invoiceBody, json, type KopekContractOptions } from "./kopek-harness.js";

const SECOND_MS = 1000;

/**
 * API.md 3 for invoices, made both ways: with the provider's own payment page (claim, run, complete)
 * and on Kopek's hosted page (one storage step, no lease). The client cannot tell them apart.
 */
export function registerInvoiceIdempotencyTests(options: KopekContractOptions): void {
  for (const paymentPage of ["provider", "kopek"] as const)
    describe(`invoice idempotency (the payer pays on the ${paymentPage}'s page)`, () => {
      it("replays a stored invoice even once its body fails a rule that depends on the time", async () => {
        const h = await createHarness(options, { paymentPage });
        // Valid now (at least 60 s ahead); 90 s later the same body would be refused.
        const expiresAt = new Date(h.clock.now().getTime() + 120 * SECOND_MS).toISOString();
        const first = await h.call("/v1/invoices", { ...invoiceBody(), expiresAt }, "timely");
        h.clock.advance(90 * SECOND_MS);
        const fresh = await h.call("/v1/invoices", { ...invoiceBody(), expiresAt }, "late");
        const replayed = await h.call("/v1/invoices", { ...invoiceBody(), expiresAt }, "timely");
        expect(first.status).toBe(201);
        expect([fresh.status, json(fresh).code]).toEqual([422, "validation_failed"]);
        expect([replayed.status, replayed.body]).toEqual([200, first.body]);
        expect(replayed.headers["idempotent-replayed"]).toBe("true");
      });

      it("creates one invoice for 50 concurrent identical requests, and every answer shows it", async () => {
        const h = await createHarness(options, { paymentPage });
        const responses = await Promise.all(
          Array.from({ length: 50 }, () => h.call("/v1/invoices", invoiceBody(), "same-invoice")),
        );
        const created = responses.filter((r) => r.status === 201);
        expect(created).toHaveLength(1);
        for (const r of responses.filter((x) => x.status !== 201)) {
          if (r.status === 409) expect(json(r).code).toBe("idempotency_request_in_progress");
          else expect([r.status, r.body]).toEqual([200, created[0]?.body]);
        }
        expect((await h.storage.inspect()).invoices ?? []).toHaveLength(1);
        expect(h.linkCalls()).toBe(paymentPage === "provider" ? 1 : 0);
      });

      it("leaves no trace of a body that fails validation: the key then creates with a valid one", async () => {
        const h = await createHarness(options, { paymentPage });
        const bad = await h.call("/v1/invoices", { amount: { amount: "1.50", currency: "RUB" } }, "fix-me");
        const good = await h.call("/v1/invoices", invoiceBody(), "fix-me");
        expect([bad.status, json(bad).code]).toEqual([422, "validation_failed"]);
        expect(good.status).toBe(201);
      });

      it("refuses another body under a used key, valid or not, as idempotency_key_reused", async () => {
        const h = await createHarness(options, { paymentPage });
        await h.call("/v1/invoices", invoiceBody(), "used");
        const other = await h.call("/v1/invoices", { amount: { amount: "7", currency: "RUB" } }, "used");
        const invalid = await h.call("/v1/invoices", { amount: "not money" }, "used");
        expect(json(other).code).toBe("idempotency_key_reused");
        expect(json(invalid).code).toBe("idempotency_key_reused");
        expect((await h.storage.inspect()).invoices ?? []).toHaveLength(1);
      });

      it("answers 409 while another execution holds the key, and takes it over, same id, once its lease ran out", async () => {
        const h = await createHarness(options, { paymentPage, leaseMs: 10 * SECOND_MS });
        const body = invoiceBody();
        // What a process that crashed mid-create leaves: the key claimed for this very request.
        const now = h.clock.now();
        const recordId = crypto.randomUUID();
        const claimed = await h.storage.claimIdempotencyKey({
          projectId: h.project.id,
          key: "abandoned",
          fingerprint: fingerprintRequest("POST", "/v1/invoices", canonicalJson(body)),
          recordId,
          leaseToken: crypto.randomUUID(),
          now,
          leaseExpiresAt: new Date(now.getTime() + 10 * SECOND_MS),
          expiresAt: new Date(now.getTime() + 24 * 3600 * SECOND_MS),
          apiKeyId: null,
        });
        expect(claimed._unsafeUnwrap()).toMatchObject({ kind: "claimed" });
        const during = await h.call("/v1/invoices", body, "abandoned");
        expect([during.status, json(during).code]).toEqual([409, "idempotency_request_in_progress"]);
        h.clock.advance(10 * SECOND_MS + 1);
        const after = await h.call("/v1/invoices", body, "abandoned");
        expect(after.status).toBe(201);
        expect(json(after).id).toBe(recordId);
        const replay = await h.call("/v1/invoices", body, "abandoned");
        expect([replay.status, replay.body]).toEqual([200, after.body]);
      });

      it("refuses a revoked key on a new invoice and on a replay, writing nothing", async () => {
        const h = await createHarness(options, { paymentPage });
        const { hashApiKey } = await import("@kopek/core");
        await h.call("/v1/invoices", invoiceBody(), "kept");
        const before = await h.storage.inspect();
        (await h.storage.revokeApiKey(hashApiKey(h.apiKey), h.clock.now()))._unsafeUnwrap();
        const fresh = await h.call("/v1/invoices", invoiceBody(), "new-after-revocation");
        const replay = await h.call("/v1/invoices", invoiceBody(), "kept");
        expect([fresh.status, replay.status]).toEqual([401, 401]);
        const after = await h.storage.inspect();
        expect(after.invoices).toEqual(before.invoices);
        expect(after.idempotency_records).toEqual(before.idempotency_records);
      });
    });
}
