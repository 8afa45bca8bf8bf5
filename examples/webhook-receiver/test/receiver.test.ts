import type { AddressInfo } from "node:net";
import { generateWebhookSecret, signWebhook } from "@kopek/core";
import { expect, it } from "vitest";
import { createReceiver } from "../receiver.js";

it("accepts a signed event once (deduplicated by webhook-id) and refuses a bad signature with 401", async () => {
  const secret = generateWebhookSecret();
  const events: string[] = [];
  const server = createReceiver(secret, (event) => events.push(event.type));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const body = JSON.stringify({
    type: "invoice.paid",
    timestamp: new Date().toISOString(),
    data: { id: "x" },
  });
  const headers = signWebhook(secret, "01890000-0000-7000-8000-000000000000", new Date(), body);
  try {
    expect((await fetch(url, { method: "POST", headers, body })).status).toBe(204);
    expect((await fetch(url, { method: "POST", headers, body })).status).toBe(204);
    expect(events).toEqual(["invoice.paid"]);
    const tampered = body.replace("invoice.paid", "invoice.expired");
    expect((await fetch(url, { method: "POST", headers, body: tampered })).status).toBe(401);
  } finally {
    server.close();
  }
});
