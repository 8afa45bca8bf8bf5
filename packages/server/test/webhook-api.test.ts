import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { webhookUrlRule } from "../src/webhooks/webhook-url-policy.js";
import { apiClient } from "./api-client.js";
import { startPayServer } from "./pay-fixture.js";
import { SERVER_STORAGES } from "./postgres-database.js";
import { startReceiver } from "./webhook-receiver.js";

// API.md 12 over real HTTP, with a real receiver that verifies with the Standard Webhooks reference
// library: an operator finds a failed delivery and resends it, rotates a secret with no delivery
// lost, disables an endpoint, and lists events.

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field and checked by the assertions.
type Json = any;

async function until(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

describe.each(SERVER_STORAGES)("webhook endpoints and events through the API on %s", (_name, open) => {
  let opened: Awaited<ReturnType<typeof open>>;
  let server: Awaited<ReturnType<typeof startPayServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key ?? server.apiKey}`,
        ...(method === "POST"
          ? { "idempotency-key": crypto.randomUUID(), "content-type": "application/json" }
          : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const newCustomer = async (email: string) => (await call("POST", "/v1/customers", { email })).body.id;

  beforeAll(async () => {
    opened = await open();
    receiver = await startReceiver();
    server = await startPayServer(`${receiver.url}/fixture`, {
      storage: opened.storage,
      retryScheduleMs: [50, 50],
      // The server's own rule, with the development setting that lets a receiver on this machine in.
      webhookUrlProblem: webhookUrlRule({ KOPEK_WEBHOOKS_ALLOW_LOCAL: "on" }),
    });
    // The fixture's endpoint goes through the API too: the walk below sees only its own.
    expect((await call("DELETE", `/v1/webhook-endpoints/${server.endpoint.id}`)).body).toEqual({
      id: server.endpoint.id,
      deleted: true,
    });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await opened?.close();
  });

  it("creates an endpoint with its secret shown once, refuses a URL the outbound guard refuses", async () => {
    for (const [url, reason] of [
      ["https://10.0.0.7/hooks", "private"],
      ["https://169.254.169.254/latest", "linkLocal"],
      ["https://user:pw@shop.example/hooks", "user name"],
      ["ftp://shop.example/hooks", null],
    ] as const) {
      const refused = await call("POST", "/v1/webhook-endpoints", { url });
      if (reason === null) {
        expect(refused.status).toBe(422);
        expect(refused.body.code).toBe("validation_failed");
      } else {
        expect(refused).toMatchObject({ status: 422, body: { code: "url_not_allowed" } });
        expect(refused.body.detail).toContain(reason);
      }
    }
    const key = crypto.randomUUID();
    const send = () =>
      fetch(`${server.url}/v1/webhook-endpoints`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.apiKey}`,
          "idempotency-key": key,
          "content-type": "application/json",
        },
        body: JSON.stringify({ url: `${receiver.url}/hooks`, description: "Billing" }),
      });
    const first = await send();
    expect(first.status).toBe(201);
    const created = (await first.json()) as Json;
    expect(first.headers.get("location")).toBe(`/v1/webhook-endpoints/${created.id}`);
    expect(created).toMatchObject({
      url: `${receiver.url}/hooks`,
      events: null,
      description: "Billing",
      enabled: true,
    });
    expect(String(created.secret)).toMatch(/^whsec_/);
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual({ ...created, secret: null });
    const read = await call("GET", `/v1/webhook-endpoints/${created.id}`);
    expect(read.body).toEqual(Object.fromEntries(Object.entries(created).filter(([k]) => k !== "secret")));
    expect(JSON.stringify((await call("GET", "/v1/webhook-endpoints")).body)).not.toContain("whsec_");
    expect((await call("DELETE", `/v1/webhook-endpoints/${created.id}`)).status).toBe(200);
    expect((await call("DELETE", `/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
    expect((await call("GET", `/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
  });

  it("lets an operator find a failed delivery, re-enable the endpoint and resend it", async () => {
    const made = await call("POST", "/v1/webhook-endpoints", {
      url: `${receiver.url}/hooks`,
      events: ["customer.created"],
    });
    const endpoint = made.body;
    const verifier = new Webhook(String(endpoint.secret));
    receiver.behaviours.push({ status: 500 }, { status: 500 }, { status: 500 });
    const customerId = await newCustomer("failing@example.ru");
    // Three attempts (the schedule has two retries), all 500: the delivery failed, the endpoint is off.
    await until(
      async () => (await call("GET", `/v1/webhook-endpoints/${endpoint.id}`)).body.enabled === false,
    );
    const failed = await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=failed`);
    expect(failed.body.data).toHaveLength(1);
    const [attempt] = failed.body.data;
    expect(attempt).toMatchObject({
      endpointId: endpoint.id,
      eventType: "customer.created",
      outcome: "failed",
      httpStatus: 500,
      error: "HTTP 500",
    });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    const all = await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2`);
    expect(all.body.data.map((a: Json) => a.outcome)).toEqual(["failed", "retry"]);
    const older = await call(
      "GET",
      `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2&cursor=${all.body.nextCursor}`,
    );
    expect(older.body.data.map((a: Json) => a.outcome)).toEqual(["retry"]);
    expect(older.body.nextCursor).toBeNull();
    const event = await call("GET", `/v1/events/${attempt.eventId}`);
    expect(event.body).toMatchObject({
      id: attempt.eventId,
      type: "customer.created",
      data: { id: customerId },
    });

    const enabled = await call("POST", `/v1/webhook-endpoints/${endpoint.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
    const before = receiver.received.length;
    const resent = await call("POST", `/v1/events/${attempt.eventId}/redeliver`, {});
    expect(resent.body).toEqual({ eventId: attempt.eventId, endpointIds: [endpoint.id] });
    await until(() => receiver.received.length > before);
    const hook = receiver.received[before];
    expect(hook?.headers["webhook-id"]).toBe(attempt.eventId);
    // The body delivered is the event's, byte for byte what GET /v1/events/{id} shows (less the id).
    const { id: _id, ...delivered } = event.body;
    expect(verifier.verify(hook?.body ?? "", hook?.headers as Record<string, string>)).toEqual(delivered);
    await until(
      async () =>
        (await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=delivered`)).body.data
          .length === 1,
    );
    expect((await call("DELETE", `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(200);
  });

  it("rotates a secret with no downtime: both signatures for 24 h, either verifies", async () => {
    const made = await call("POST", "/v1/webhook-endpoints", {
      url: `${receiver.url}/hooks`,
      events: ["customer.created"],
    });
    const oldSecret = String(made.body.secret);
    const rotated = await call("POST", `/v1/webhook-endpoints/${made.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = String(rotated.body.secret);
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const overlapEnds = Date.parse(String(rotated.body.previousSecretExpiresAt));
    expect(Math.abs(overlapEnds - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);
    const before = receiver.received.length;
    await newCustomer("rotation@example.ru");
    await until(() => receiver.received.length > before);
    const hook = receiver.received[before];
    const headers = hook?.headers as Record<string, string>;
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    // A receiver not yet switched and one already switched both accept the same delivery.
    expect(new Webhook(oldSecret).verify(hook?.body ?? "", headers)).toMatchObject({
      type: "customer.created",
    });
    expect(new Webhook(newSecret).verify(hook?.body ?? "", headers)).toMatchObject({
      type: "customer.created",
    });
    expect((await call("DELETE", `/v1/webhook-endpoints/${made.body.id}`)).status).toBe(200);
  });

  it("disables an endpoint: nothing is sent to it, and what it missed is resent on request", async () => {
    const made = await call("POST", "/v1/webhook-endpoints", {
      url: `${receiver.url}/hooks`,
      events: ["customer.created"],
    });
    const off = await call("POST", `/v1/webhook-endpoints/${made.body.id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: "disabled by the operator" });
    const before = receiver.received.length;
    const customerId = await newCustomer("waiting@example.ru");
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(before);
    // Enabled again, it takes new events; the one it missed is in the events list, resent to it alone.
    await call("POST", `/v1/webhook-endpoints/${made.body.id}`, { enabled: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(before);
    const [missed] = (await call("GET", "/v1/events?type=customer.created&limit=1")).body.data;
    expect(missed.data.id).toBe(customerId);
    const resent = await call("POST", `/v1/events/${missed.id}/redeliver`, { endpointId: made.body.id });
    expect(resent.body.endpointIds).toEqual([made.body.id]);
    await until(() => receiver.received.length > before);
    expect(JSON.parse(receiver.received[before]?.body ?? "{}").data.id).toBe(customerId);
    const unknown = await call("POST", `/v1/events/${missed.id}/redeliver`, { endpointId: missed.id });
    expect(unknown.body.errors).toEqual([
      { pointer: "#/endpointId", code: "invalid_value", detail: "names no webhook endpoint of this project" },
    ]);
    expect((await call("DELETE", `/v1/webhook-endpoints/${made.body.id}`)).status).toBe(200);
  });

  it("lists events newest first by type and time, and keeps another project's apart", async () => {
    const since = new Date().toISOString();
    const ids = [await newCustomer("a@example.ru"), await newCustomer("b@example.ru")];
    const listed = await call("GET", `/v1/events?type=customer.created&since=${encodeURIComponent(since)}`);
    expect(listed.body.data.map((e: Json) => e.data.id)).toEqual([...ids].reverse());
    expect((await call("GET", "/v1/events?type=invoice.nope")).body.errors[0].pointer).toBe("#/type");
    expect((await call("GET", "/v1/events?since=yesterday")).body.errors[0].pointer).toBe("#/since");
    const page = await call("GET", "/v1/events?limit=1");
    expect(page.body.data).toHaveLength(1);
    expect(page.body.nextCursor).not.toBeNull();

    const other = (
      await createProjectWithKey(server.storage, {
        name: "Other",
        provider: { kind: "sandbox", storedMethodCharge: true },
      })
    )._unsafeUnwrap();
    const theirs = apiClient(server.url, other.apiKey);
    expect(await theirs.get("/v1/events")).toEqual({ data: [], nextCursor: null });
    expect((await call("GET", `/v1/events/${listed.body.data[0].id}`, undefined, other.apiKey)).status).toBe(
      404,
    );
    expect(
      (await call("POST", `/v1/events/${listed.body.data[0].id}/redeliver`, {}, other.apiKey)).status,
    ).toBe(404);
  });
});
