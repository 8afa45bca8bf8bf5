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

it("keeps verifying through a secret rotation: deliveries signed with both pass a receiver holding either", async () => {
  const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
  // What Kopek sends for 24 h after rotate-secret: one signature per secret, new first.
  const body = JSON.stringify({
    type: "invoice.paid",
    timestamp: new Date().toISOString(),
    data: { id: "r" },
  });
  const overlap = signWebhook(
    [newSecret, oldSecret],
    "01890000-0000-7000-8000-000000000001",
    new Date(),
    body,
  );
  const afterwards = signWebhook(newSecret, "01890000-0000-7000-8000-000000000002", new Date(), body);
  const statuses = async (secrets: string | string[]) => {
    const server = createReceiver(secrets, () => {});
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const send = async (headers: Record<string, string>) =>
        (await fetch(url, { method: "POST", headers, body })).status;
      return [await send(overlap), await send(afterwards)];
    } finally {
      server.close();
    }
  };
  // Not yet redeployed: the old secret verifies the overlap's deliveries (only once it ends would it fail).
  expect(await statuses(oldSecret)).toEqual([204, 401]);
  // Redeployed with the new one, or with both: every delivery verifies.
  expect(await statuses(newSecret)).toEqual([204, 204]);
  expect(await statuses([newSecret, oldSecret])).toEqual([204, 204]);
});
