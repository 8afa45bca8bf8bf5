import { expect, test } from "vitest";
import { buildTestApp, subscriptionBody } from "./helper.js";

test("the log holds one line per request and never the key, the method token or a card number", async () => {
  const t = await buildTestApp();
  const card = "4111 1111 1111 1111";
  const rejected = await t.post(
    "/v1/subscriptions",
    subscriptionBody({ providerMethodRef: `card ${card}` }),
    {
      "x-request-id": "log-1",
    },
  );
  expect(rejected.statusCode).toBe(422);
  const ref = "tok_live_secret_ref_9876";
  const created = await t.post("/v1/subscriptions", subscriptionBody({ providerMethodRef: ref }), {
    "x-request-id": "log-2",
  });
  expect(created.statusCode).toBe(201);

  const log = t.logLines.join("");
  for (const secret of [card, card.replaceAll(" ", ""), t.apiKey, ref, "providerMethodRef"])
    expect(log).not.toContain(secret);
  const lines = t.logLines.map((line) => JSON.parse(line));
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatchObject({
    requestId: "log-2",
    projectId: t.project.id,
    method: "POST",
    route: "/v1/subscriptions",
    status: 201,
    durationMs: expect.any(Number),
  });
});
