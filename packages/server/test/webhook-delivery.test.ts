import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { startPayServer } from "./pay-fixture.js";
import { startReceiver } from "./webhook-receiver.js";

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

const subscriptionBody = {
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_webhook_test",
};

describe("webhook delivery to a real HTTP receiver", () => {
  it("retries a 500, a timeout and a 503 with Retry-After, then delivers one event: same webhook-id, each signed", async () => {
    const receiver = await startReceiver();
    receiver.behaviours.push({ status: 500 }, "hang", { status: 503, retryAfter: "1" });
    const server = await startPayServer(`${receiver.url}/hooks`);
    try {
      expect((await server.post("/v1/subscriptions", subscriptionBody)).status).toBe(201);
      await until(() => receiver.received.length >= 4);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(4);
      const verifier = new Webhook(server.secret);
      const ids = receiver.received.map((hook) => {
        const payload = verifier.verify(hook.body, hook.headers as Record<string, string>) as {
          type: string;
        };
        expect(payload.type).toBe("subscription.created");
        return hook.headers["webhook-id"];
      });
      expect(new Set(ids).size).toBe(1);
      const [, , third, fourth] = receiver.received;
      expect((fourth?.at ?? 0) - (third?.at ?? 0)).toBeGreaterThanOrEqual(950); // Retry-After: 1
      const [event] = (await server.storage.listEventDeliveries(server.project.id))._unsafeUnwrap();
      expect(event?.deliveries).toEqual([
        { endpointId: server.endpoint.id, state: "delivered", attempts: 4, lastStatus: 200 },
      ]);
    } finally {
      await server.close();
      await receiver.close();
    }
  }, 30_000);

  it("delivers every event written while the receiver was down once it is back, none twice", async () => {
    const first = await startReceiver();
    const server = await startPayServer(`${first.url}/hooks`, {
      retryScheduleMs: [100, 200, 300, 300, 300, 300, 300],
    });
    await first.close();
    let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
    try {
      for (let i = 0; i < 5; i++) {
        expect((await server.post("/v1/subscriptions", subscriptionBody)).status).toBe(201);
        const invoice = (await (
          await server.post("/v1/invoices", { amount: { amount: "100", currency: "USD" } })
        ).json()) as { id: string };
        expect((await server.post(`/v1/invoices/${invoice.id}/cancel`, undefined)).status).toBe(200);
      }
      await new Promise((r) => setTimeout(r, 500)); // down for a while: attempts fail
      receiver = await startReceiver(first.port);
      const r = receiver;
      await until(() => new Set(r.received.map((h) => h.headers["webhook-id"])).size >= 10);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ids = r.received.map((h) => String(h.headers["webhook-id"]));
      expect(new Set(ids).size).toBe(10);
      expect(ids).toHaveLength(10);
      const events = (await server.storage.listEventDeliveries(server.project.id))._unsafeUnwrap();
      expect(events.map((e) => e.deliveries[0]?.state)).toEqual(Array(10).fill("delivered"));
    } finally {
      await server.close();
      await receiver?.close();
    }
  }, 30_000);
});
