import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  subscriptionBody,
} from "./kopek-harness.js";

const HOUR_MS = 60 * 60 * 1000;

export function registerLifecycleTests(options: KopekContractOptions): void {
  describe("read", () => {
    it("answers GET with the resource as created, and 404 for unknown, malformed and other projects' ids", async () => {
      const h = await createHarness(options);
      const created = await h.call("/v1/subscriptions", subscriptionBody());
      const id = json(created).id as string;
      const read = await h.get(`/v1/subscriptions/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toBe(created.body);
      const other = await createHarness({ ...options, createStorage: () => h.storage });
      for (const path of [
        `/v1/subscriptions/${crypto.randomUUID()}`,
        "/v1/subscriptions/not-a-uuid",
        `/v1/invoices/${id}`,
      ]) {
        expect((await h.get(path)).status).toBe(404);
      }
      expect(json(await other.get(`/v1/subscriptions/${id}`)).code).toBe("not_found");
    });

    it("reads an unpaid invoice past expiresAt as expired at once", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      h.clock.advance(24 * HOUR_MS);
      expect(json(await h.get(`/v1/invoices/${id}`)).status).toBe("expired");
      expect((json(await h.get("/v1/invoices", { status: "expired" })).data as unknown[]).length).toBe(1);
      expect((json(await h.get("/v1/invoices", { status: "created" })).data as unknown[]).length).toBe(0);
    });
  });

  describe("list", () => {
    it("pages newest first with an opaque cursor, without repeats or gaps while new ones arrive", async () => {
      const h = await createHarness(options);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        ids.push(json(await h.call("/v1/invoices", invoiceBody())).id as string);
        h.clock.advance(1);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = json(
          await h.get("/v1/invoices", { limit: "3", ...(cursor === null ? {} : { cursor }) }),
        );
        seen.push(...(page.data as { id: string }[]).map((i) => i.id));
        cursor = page.nextCursor as string | null;
        await h.call("/v1/invoices", invoiceBody());
      } while (cursor !== null);
      expect(seen).toEqual([...ids].reverse());
    });

    it("refuses a bad limit, cursor or status with validation_failed", async () => {
      const h = await createHarness(options);
      for (const query of [{ limit: "0" }, { limit: "101" }, { cursor: "garbage" }, { status: "lost" }]) {
        const response = await h.get("/v1/invoices", query);
        expect([response.status, json(response).code]).toEqual([422, "validation_failed"]);
      }
      expect(json(await h.get("/v1/subscriptions", { status: "active" })).code).toBe("validation_failed");
      expect(json(await h.get("/v1/subscriptions")).data).toEqual([]);
    });
  });

  describe("cancel", () => {
    it("cancels a subscription with 200, replays it for the same key and refuses a second cancel", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/subscriptions", subscriptionBody())).id as string;
      h.clock.advance(HOUR_MS);
      const canceled = await h.call(`/v1/subscriptions/${id}/cancel`, undefined, "cancel-1");
      expect(canceled.status).toBe(200);
      expect(json(canceled)).toMatchObject({
        status: "canceled",
        canceledAt: "2026-01-31T11:00:00.000Z",
        cancelReason: "requested",
      });
      const replay = await h.call(`/v1/subscriptions/${id}/cancel`, undefined, "cancel-1");
      expect([replay.status, replay.headers["idempotent-replayed"], replay.body]).toEqual([
        200,
        "true",
        canceled.body,
      ]);
      const again = await h.call(`/v1/subscriptions/${id}/cancel`, {}, "cancel-2");
      expect([again.status, json(again).code]).toEqual([409, "invalid_state"]);
      expect((await h.get(`/v1/subscriptions/${id}`)).body).toBe(canceled.body);
    });

    it("cancels an open invoice and refuses to cancel an expired one", async () => {
      const h = await createHarness(options);
      const open = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const old = json(
        await h.call("/v1/invoices", { ...invoiceBody(), expiresAt: "2026-01-31T10:05:00.000Z" }),
      ).id as string;
      h.clock.advance(10 * 60_000);
      const canceled = await h.call(`/v1/invoices/${open}/cancel`, {});
      expect(json(canceled)).toMatchObject({ status: "canceled", canceledAt: "2026-01-31T10:10:00.000Z" });
      const expired = await h.call(`/v1/invoices/${old}/cancel`, {});
      expect([expired.status, json(expired).code]).toEqual([409, "invalid_state"]);
    });

    it("needs an Idempotency-Key, takes no fields, and answers 404 for an unknown id", async () => {
      const h = await createHarness(options);
      const id = json(await h.call("/v1/invoices", invoiceBody())).id as string;
      const noKey = await h.kopek.handle({
        method: "POST",
        url: `/v1/invoices/${id}/cancel`,
        headers: { authorization: `Bearer ${h.apiKey}` },
      });
      expect(json(noKey).code).toBe("idempotency_key_missing");
      expect(json(await h.call(`/v1/invoices/${id}/cancel`, { reason: "x" })).code).toBe("validation_failed");
      expect((await h.call(`/v1/invoices/${crypto.randomUUID()}/cancel`, {})).status).toBe(404);
    });
  });
}
