import { describe, expect, test } from "vitest";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { buildTestApp, invoiceBody, json, subscriptionBody } from "./helper.js";

describe("GET /v1/{subscriptions,invoices}/{id}", async () => {
  const t = await buildTestApp();
  const subscription = json(await t.post("/v1/subscriptions", subscriptionBody()));
  const invoice = json(await t.post("/v1/invoices", invoiceBody()));

  test("200 with the resource exactly as created", async () => {
    for (const [path, created] of [
      ["/v1/subscriptions", subscription],
      ["/v1/invoices", invoice],
    ] as const) {
      const response = await t.get(`${path}/${created.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(json(response)).toEqual(created);
    }
  });

  test.each([
    ["an unknown id", "/v1/invoices/0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d"],
    ["a malformed id", "/v1/invoices/not-a-uuid"],
    ["an upper-case id", () => `/v1/subscriptions/${subscription.id.toUpperCase()}`],
    ["the other collection's id", () => `/v1/invoices/${subscription.id}`],
  ])("404 not_found for %s", async (_name, url) => {
    const response = await t.get(typeof url === "string" ? url : url());
    expect(response.statusCode).toBe(404);
    expect(json(response).code).toBe("not_found");
  });

  test("404 for another project's id, exactly as for an unknown one", async () => {
    const other = (
      await createProjectWithKey(t.storage, {
        name: "other",
        provider: { kind: "sandbox", storedMethodCharge: true },
      })
    )._unsafeUnwrap();
    const theirs = await t.get(`/v1/subscriptions/${subscription.id}`, other.apiKey);
    const unknown = await t.get("/v1/subscriptions/0192f3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", other.apiKey);
    expect(theirs.statusCode).toBe(404);
    const { requestId: _a, ...theirsBody } = json(theirs);
    const { requestId: _b, ...unknownBody } = json(unknown);
    expect(theirsBody).toEqual(unknownBody);
    expect(json(await t.get("/v1/subscriptions", other.apiKey))).toEqual({ data: [], nextCursor: null });
  });

  test("401 before anything else", async () => {
    const response = await t.app.inject({ method: "GET", url: `/v1/invoices/${invoice.id}` });
    expect(response.statusCode).toBe(401);
  });
});

describe("GET /v1/{subscriptions,invoices}: pages", async () => {
  const t = await buildTestApp();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.unshift(json(await t.post("/v1/invoices", invoiceBody())).id);

  test("newest first, limit 2: three pages, every id once, nextCursor null on the last", async () => {
    const seen: string[] = [];
    const cursors: (string | null)[] = [];
    let url = "/v1/invoices?limit=2";
    for (;;) {
      const page = json(await t.get(url));
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((invoice: { id: string }) => invoice.id));
      cursors.push(page.nextCursor);
      if (page.nextCursor === null) break;
      url = `/v1/invoices?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    expect(seen).toEqual(ids);
    expect(cursors).toHaveLength(3);
    expect(cursors.at(-1)).toBeNull();
  });

  test("default limit 20; a page taken while new invoices arrive neither repeats nor skips", async () => {
    const first = json(await t.get("/v1/invoices?limit=3"));
    await t.post("/v1/invoices", invoiceBody());
    const rest = json(await t.get(`/v1/invoices?cursor=${first.nextCursor}`));
    expect([...first.data, ...rest.data].map((invoice: { id: string }) => invoice.id)).toEqual(ids);
    expect(json(await t.get("/v1/invoices")).data).toHaveLength(6);
  });

  test("status filters invoices; an empty result is { data: [], nextCursor: null }", async () => {
    expect(json(await t.get("/v1/invoices?status=created")).data).toHaveLength(6);
    expect(json(await t.get("/v1/invoices?status=paid"))).toEqual({ data: [], nextCursor: null });
  });
});
