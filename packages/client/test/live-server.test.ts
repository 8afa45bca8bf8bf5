import { randomUUID } from "node:crypto";
import { generateApiKey } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKopekClient, type KopekClient, newIdempotencyKey } from "../src/index.js";
import { startLiveServer } from "./live-server.js";

describe("the client against a live server", () => {
  let server: Awaited<ReturnType<typeof startLiveServer>>;
  let baseUrl: string;
  let client: KopekClient;
  let apiKey: string;

  beforeAll(async () => {
    server = await startLiveServer();
    baseUrl = server.baseUrl;
    apiKey = await server.newProject();
    client = createKopekClient({ baseUrl, apiKey, idempotencyKeys: "generate" });
  });
  afterAll(() => server?.close());

  it("creates a subscription, and replays it with the same Idempotency-Key", async () => {
    const body = {
      amount: { amount: "149900", currency: "RUB" },
      period: { unit: "month" as const, count: 1 },
      method: "card" as const,
      providerMethodRef: "pm_sandbox_client",
    };
    const key = randomUUID();
    const first = await client.POST("/v1/subscriptions", {
      body,
      params: { header: { "Idempotency-Key": key } },
    });
    expect(first.response.status).toBe(201);
    expect(first.data?.status).toBe("active");
    expect(first.data?.amount).toEqual(body.amount);
    expect(first.response.headers.get("location")).toBe(`/v1/subscriptions/${first.data?.id}`);

    const replay = await client.POST("/v1/subscriptions", {
      body,
      params: { header: { "Idempotency-Key": key } },
    });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.data).toEqual(first.data);
  });

  it("creates an invoice with a generated Idempotency-Key each time", async () => {
    const body = { amount: { amount: "49900", currency: "EUR" }, method: "sbp" as const };
    const first = await client.POST("/v1/invoices", { body });
    const second = await client.POST("/v1/invoices", { body });
    expect(first.response.status).toBe(201);
    expect(second.response.status).toBe(201);
    expect(first.data?.pinnedMethod).toBe("sbp");
    expect(second.data?.id).not.toBe(first.data?.id);
  });

  it("lists a subscription's payments by subscriptionId and reads one by id", async () => {
    const created = await client.POST("/v1/subscriptions", {
      body: {
        amount: { amount: "99900", currency: "RUB" },
        period: { unit: "week" as const, count: 2 },
        method: "card" as const,
        providerMethodRef: "pm_sandbox_client_payments",
      },
    });
    const subscriptionId = created.data?.id as string;
    const listed = await client.GET("/v1/payments", { params: { query: { subscriptionId } } });
    expect(listed.response.status).toBe(200);
    const [payment] = listed.data?.data ?? [];
    expect(payment).toMatchObject({ status: "succeeded", subscriptionId, cycle: 1, invoiceId: null });
    const one = await client.GET("/v1/payments/{id}", { params: { path: { id: payment?.id as string } } });
    expect(one.data).toEqual(payment);
  });

  it("by default refuses a POST without a key before sending it; a retry with the caller's key replays", async () => {
    const strict = createKopekClient({ baseUrl, apiKey: apiKey });
    const body = { amount: { amount: "100", currency: "RUB" as const } };
    await expect(strict.POST("/v1/invoices", { body })).rejects.toThrow(
      /needs params\.header\["Idempotency-Key"\]/,
    );
    // The naive retry: the same call again, with the key made once for the operation.
    const key = newIdempotencyKey();
    const first = await strict.POST("/v1/invoices", { body, params: { header: { "Idempotency-Key": key } } });
    const retry = await strict.POST("/v1/invoices", { body, params: { header: { "Idempotency-Key": key } } });
    expect([first.response.status, retry.response.status]).toEqual([201, 200]);
    expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.data?.id).toBe(first.data?.id);
  });

  it("with generated keys, a retry inside fetch resends the same Request and so the same key", async () => {
    const sent: string[] = [];
    const retrying: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.headers.get("idempotency-key") ?? "");
      await fetch(request.clone()); // the answer is lost on the way back…
      sent.push(request.headers.get("idempotency-key") ?? "");
      return fetch(request); // …so it is retried
    };
    const viaRetries = createKopekClient({
      baseUrl,
      apiKey: apiKey,
      idempotencyKeys: "generate",
      fetch: retrying,
    });
    const { response } = await viaRetries.POST("/v1/invoices", {
      body: { amount: { amount: "100", currency: "RUB" } },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("idempotent-replayed")).toBe("true");
    expect(new Set(sent).size).toBe(1);
  });

  it("returns problems typed by code", async () => {
    const { data, error, response } = await client.POST("/v1/invoices", {
      body: { amount: { amount: "0100", currency: "EUR" } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(error?.code).toBe("validation_failed");
    expect(error?.errors?.[0]?.pointer).toBe("#/amount/amount");
  });

  it("sends the API key: a wrong one is refused", async () => {
    const stranger = createKopekClient({ baseUrl, apiKey: generateApiKey(), idempotencyKeys: "generate" });
    const { error, response } = await stranger.POST("/v1/invoices", {
      body: { amount: { amount: "100", currency: "EUR" } },
    });
    expect(response.status).toBe(401);
    expect(error?.code).toBe("unauthorized");
  });

  it("lists page by page with the cursor, and reads one by id", async () => {
    const body = { amount: { amount: "100", currency: "RUB" as const } };
    const created = [];
    for (let i = 0; i < 3; i++) created.unshift((await client.POST("/v1/invoices", { body })).data?.id);
    const first = await client.GET("/v1/invoices", { params: { query: { limit: 2, status: "created" } } });
    expect(first.response.status).toBe(200);
    expect(first.data?.data.map((invoice) => invoice.id)).toEqual(created.slice(0, 2));
    const cursor = first.data?.nextCursor ?? "";
    const second = await client.GET("/v1/invoices", { params: { query: { limit: 2, cursor } } });
    expect(second.data?.data[0]?.id).toBe(created[2]);

    const one = await client.GET("/v1/invoices/{id}", { params: { path: { id: created[0] ?? "" } } });
    expect(one.data?.id).toBe(created[0]);
    const bad = await client.GET("/v1/subscriptions", { params: { query: { limit: 101 } } });
    expect(bad.response.status).toBe(422);
    expect(bad.error?.errors?.[0]?.pointer).toBe("#/limit");
  });

  it("cancels without a body; a second cancel is 409 invalid_state", async () => {
    const created = await client.POST("/v1/subscriptions", {
      body: {
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        method: "card",
        providerMethodRef: "pm_sandbox_cancel",
      },
    });
    const path = { id: created.data?.id ?? "" };
    const canceled = await client.POST("/v1/subscriptions/{id}/cancel", { params: { path } });
    expect(canceled.response.status).toBe(200);
    expect(canceled.data).toMatchObject({ status: "canceled", cancelReason: "requested" });
    expect(canceled.data?.canceledAt).not.toBeNull();
    const again = await client.POST("/v1/subscriptions/{id}/cancel", { params: { path }, body: {} });
    expect(again.response.status).toBe(409);
    expect(again.error?.code).toBe("invalid_state");
  });

  it("reads the health endpoints", async () => {
    const { data, response } = await client.GET("/readyz");
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: "ok" });
  });
});
