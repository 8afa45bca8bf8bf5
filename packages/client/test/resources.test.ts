import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createKopekClient,
  type Invoice,
  KopekApiError,
  type KopekClient,
  type KopekMutationOptions,
  newIdempotencyKey,
} from "../src/index.js";
import { startLiveServer } from "./live-server.js";

const rub = (amount: string) => ({ amount: { amount, currency: "RUB" as const } });

async function collect<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe("resource methods against a live server", () => {
  let server: Awaited<ReturnType<typeof startLiveServer>>;
  /** A client of a project of its own, with fast retries. */
  const clientFor = async (fetch?: typeof globalThis.fetch): Promise<KopekClient> =>
    createKopekClient({
      baseUrl: server.baseUrl,
      apiKey: await server.newProject(),
      retryDelayMs: 1,
      ...(fetch === undefined ? {} : { fetch }),
    });

  beforeAll(async () => {
    server = await startLiveServer();
  });
  afterAll(() => server?.close());

  it("creates, reads, lists and cancels an invoice, answering the data itself", async () => {
    const kopek = await clientFor();
    const created = await kopek.invoices.create(
      { ...rub("149900"), description: "Order 42" },
      { idempotencyKey: newIdempotencyKey() },
    );
    expect(created).toMatchObject({
      status: "created",
      amount: rub("149900").amount,
      description: "Order 42",
    });
    expect(await kopek.invoices.get(created.id)).toEqual(created);

    const page = await kopek.invoices.listPage({ limit: 10 });
    expect(page.data.map((invoice) => invoice.id)).toEqual([created.id]);
    expect(page.nextCursor).toBeNull();

    const key = newIdempotencyKey();
    const canceled = await kopek.invoices.cancel(created.id, { idempotencyKey: key });
    expect(canceled).toMatchObject({ id: created.id, status: "canceled" });
    expect(canceled.canceledAt).not.toBeNull();
    // The same key again replays the first answer: no 409 invalid_state.
    expect(await kopek.invoices.cancel(created.id, { idempotencyKey: key })).toEqual(canceled);
    expect((await kopek.invoices.get(created.id)).status).toBe("canceled");
  });

  it("walks every page with for await, and stops after the last one", async () => {
    const asked: string[] = [];
    const kopek = await clientFor((input, init) => {
      const request = new Request(input, init);
      if (request.method === "GET") asked.push(new URL(request.url).search);
      return fetch(request);
    });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.unshift(
        (await kopek.invoices.create(rub(`${100 + i}`), { idempotencyKey: newIdempotencyKey() })).id,
      );

    const walked: Invoice[] = [];
    for await (const invoice of kopek.invoices.list({ limit: 3 })) walked.push(invoice);
    expect(walked.map((invoice) => invoice.id)).toEqual(ids); // newest first, none twice, none missed
    expect(asked).toHaveLength(3); // 3 + 3 + 1
    expect(asked[0]).toBe("?limit=3");
    expect(asked[1]).toMatch(/^\?limit=3&cursor=/);

    // Filters go along to every page; breaking out asks for no further page.
    expect(await collect(kopek.invoices.list({ limit: 3, status: "paid" }))).toEqual([]);
    asked.length = 0;
    for await (const invoice of kopek.invoices.list({ limit: 3 })) if (invoice.id === ids[1]) break;
    expect(asked).toHaveLength(1);
  });

  it("rejects a non-2xx answer with a typed KopekApiError", async () => {
    const kopek = await clientFor();
    const invalid = await kopek.invoices
      .create(rub("0100"), { idempotencyKey: newIdempotencyKey() })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(KopekApiError);
    const problem = invalid as KopekApiError;
    expect(problem.status).toBe(422);
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors?.[0]?.pointer).toBe("#/amount/amount");
    expect(problem.problem?.type).toBe("urn:kopek:problem:validation_failed");
    expect(problem.requestId).toBe(problem.headers.get("x-request-id"));
    expect(problem.requestId).toBeTruthy();
    expect(problem.message).toMatch(/422 validation_failed/);

    const missing = await kopek.invoices.get(randomUUID()).catch((error: unknown) => error);
    expect(missing).toMatchObject({ name: "KopekApiError", status: 404, code: "not_found" });
    await expect(kopek.subscriptions.listPage({ limit: 101 })).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ pointer: "#/limit" })],
    });
  });

  it("refuses a mutating call without an idempotency key before sending anything", async () => {
    let sent = 0;
    const kopek = await clientFor((input, init) => {
      sent++;
      return fetch(input, init);
    });
    const noKey = {} as KopekMutationOptions;
    await expect(kopek.invoices.create(rub("100"), noKey)).rejects.toThrow(TypeError);
    await expect(kopek.invoices.create(rub("100"), { idempotencyKey: "" })).rejects.toThrow(
      /needs \{ idempotencyKey \}/,
    );
    await expect(
      kopek.invoices.cancel(randomUUID(), undefined as unknown as KopekMutationOptions),
    ).rejects.toThrow(TypeError);
    await expect(kopek.customers.erase("", { idempotencyKey: "k" })).rejects.toThrow(TypeError);
    expect(sent).toBe(0);
  });

  it("retries a lost answer and a 503 with the same Idempotency-Key and body: one invoice", async () => {
    const attempts: { key: string | null; body: string }[] = [];
    let answered: Response | undefined;
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method !== "POST") return fetch(request);
      attempts.push({ key: request.headers.get("idempotency-key"), body: await request.clone().text() });
      if (attempts.length === 1) {
        await fetch(request); // the server makes the invoice, and the answer is lost on the way back
        throw new TypeError("fetch failed");
      }
      if (attempts.length === 2)
        return Response.json({ code: "storage_unavailable", detail: "try again" }, { status: 503 });
      answered = await fetch(request);
      return answered.clone();
    };
    const kopek = await clientFor(flaky);
    const key = newIdempotencyKey();
    const invoice = await kopek.invoices.create(rub("149900"), { idempotencyKey: key });

    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.key))).toEqual(new Set([key]));
    expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
    expect(answered?.status).toBe(200); // the first attempt's invoice, replayed
    expect(answered?.headers.get("idempotent-replayed")).toBe("true");
    const all = await collect(kopek.invoices.list());
    expect(all.map((one) => one.id)).toEqual([invoice.id]);
  });

  it("retries a GET after network errors, at most maxRetries times", async () => {
    let calls = 0;
    const down: typeof fetch = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const kopek = await clientFor(down);
    await expect(kopek.invoices.get(randomUUID())).rejects.toThrow("fetch failed");
    expect(calls).toBe(3); // the first attempt and 2 retries (the default)

    calls = 0;
    const once = createKopekClient({
      baseUrl: server.baseUrl,
      apiKey: "kopek_x",
      fetch: down,
      maxRetries: 0,
    });
    await expect(once.payments.listPage()).rejects.toThrow("fetch failed");
    expect(calls).toBe(1);
  });

  it("waits out 429 and 409 idempotency_request_in_progress for their Retry-After", async () => {
    const statuses = [429, 409];
    const started = Date.now();
    const busy: typeof fetch = async (input, init) => {
      const status = statuses.shift();
      if (status === undefined) return fetch(input, init);
      const code = status === 429 ? "rate_limited" : "idempotency_request_in_progress";
      return Response.json({ code, detail: "wait" }, { status, headers: { "Retry-After": "0.05" } });
    };
    const kopek = await clientFor(busy);
    const customer = await kopek.customers.create(
      { email: "a@example.com" },
      { idempotencyKey: newIdempotencyKey() },
    );
    expect(customer.email).toBe("a@example.com");
    expect(statuses).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it("does not retry a 422, nor a 409 that is not in progress", async () => {
    let calls = 0;
    const kopek = await clientFor((input, init) => {
      calls++;
      return fetch(input, init);
    });
    await expect(
      kopek.invoices.create(rub("0"), { idempotencyKey: newIdempotencyKey() }),
    ).rejects.toMatchObject({
      status: 422,
      code: "validation_failed",
    });
    expect(calls).toBe(1);

    const invoice = await kopek.invoices.create(rub("100"), { idempotencyKey: newIdempotencyKey() });
    await kopek.invoices.cancel(invoice.id, { idempotencyKey: newIdempotencyKey() });
    calls = 0;
    await expect(
      kopek.invoices.cancel(invoice.id, { idempotencyKey: newIdempotencyKey() }),
    ).rejects.toMatchObject({
      status: 409,
      code: "invalid_state",
    });
    expect(calls).toBe(1);
  });

  it("covers subscriptions, payments, refunds and customers", async () => {
    const kopek = await clientFor();
    const key = () => ({ idempotencyKey: newIdempotencyKey() });
    const customer = await kopek.customers.create({ email: "payer@example.com", name: "Payer" }, key());
    expect((await kopek.customers.update(customer.id, { name: "Renamed" }, key())).name).toBe("Renamed");
    expect(await collect(kopek.customers.list())).toEqual([expect.objectContaining({ id: customer.id })]);

    const subscription = await kopek.subscriptions.create(
      {
        ...rub("99900"),
        period: { unit: "month", count: 1 },
        method: "card",
        providerMethodRef: "pm_sandbox_resources",
        customerId: customer.id,
      },
      key(),
    );
    expect(subscription.status).toBe("active");
    expect((await kopek.subscriptions.get(subscription.id)).id).toBe(subscription.id);
    expect(
      (await kopek.subscriptions.update(subscription.id, { description: "Plan" }, key())).description,
    ).toBe("Plan");
    expect((await kopek.subscriptions.pause(subscription.id, key())).pauseAt).not.toBeNull();
    expect((await kopek.subscriptions.resume(subscription.id, key())).pauseAt).toBeNull();
    expect((await kopek.subscriptions.methodUpdate(subscription.id, key())).url).toMatch(/^http/);

    const [payment] = await collect(kopek.payments.list({ subscriptionId: subscription.id }));
    expect(payment).toMatchObject({ status: "succeeded", subscriptionId: subscription.id });
    expect(await kopek.payments.get(payment?.id ?? "")).toEqual(payment);
    const refund = await kopek.refunds.create(payment?.id ?? "", { amount: rub("100").amount }, key());
    expect(refund.amount).toEqual(rub("100").amount);
    expect(await kopek.refunds.get(refund.id)).toEqual(refund);
    expect((await kopek.refunds.listPage()).data.map((one) => one.id)).toEqual([refund.id]);

    const ending = await kopek.subscriptions.cancel(subscription.id, {
      ...key(),
      body: { at: "period_end" },
    });
    expect(ending.cancelAtPeriodEnd).toBe(true);
    expect((await kopek.subscriptions.cancel(subscription.id, key())).status).toBe("canceled");
    expect(await collect(kopek.subscriptions.list())).toEqual([
      expect.objectContaining({ status: "canceled" }),
    ]);
    expect((await kopek.customers.erase(customer.id, key())).email).toBeNull();
  });

  it("manages webhook endpoints and events (API.md 12)", async () => {
    const kopek = await clientFor();
    const key = () => ({ idempotencyKey: newIdempotencyKey() });
    const endpoint = await kopek.webhookEndpoints.create(
      { url: "https://shop.example/hooks", events: ["customer.created"] },
      key(),
    );
    expect(endpoint.secret).toMatch(/^whsec_/);
    const refused = await kopek.webhookEndpoints
      .create({ url: "http://shop.example/hooks" }, key())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KopekApiError);
    expect((refused as KopekApiError).code).toBe("url_not_allowed");
    const off = await kopek.webhookEndpoints.update(endpoint.id, { enabled: false }, key());
    expect(off.enabled).toBe(false);
    const rotated = await kopek.webhookEndpoints.rotateSecret(endpoint.id, key());
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    expect((await kopek.webhookEndpoints.get(endpoint.id)).id).toBe(endpoint.id);
    expect(await collect(kopek.webhookEndpoints.list())).toHaveLength(1);

    const customer = await kopek.customers.create({ email: "hooks@example.com" }, key());
    const [event] = await collect(kopek.events.list({ type: "customer.created" }));
    expect(event).toMatchObject({ type: "customer.created", data: { id: customer.id } });
    expect(await kopek.events.get(event?.id ?? "")).toEqual(event);
    const queued = await kopek.events.redeliver(event?.id ?? "", {
      ...key(),
      body: { endpointId: endpoint.id },
    });
    expect(queued.endpointIds).toEqual([endpoint.id]);
    expect((await kopek.webhookEndpoints.deliveries(endpoint.id).listPage()).data).toEqual([]);
    expect(await kopek.webhookEndpoints.delete(endpoint.id)).toEqual({ id: endpoint.id, deleted: true });
    const gone = await kopek.webhookEndpoints.get(endpoint.id).catch((error: unknown) => error);
    expect((gone as KopekApiError).status).toBe(404);
  });
});
