import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { hashApiKey } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedKopek, type EmbeddedKopek } from "../src/server.js";

describe("Kopek's core in a plain node:http server", () => {
  let embedded: EmbeddedKopek;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    embedded = createEmbeddedKopek({ publicUrl: "http://127.0.0.1" });
    apiKey = await embedded.addProject("shop");
    await new Promise<void>((resolve) => embedded.server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(embedded.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => embedded.server.close(resolve)));

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(baseUrl + path, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
        ...headers,
      },
      body,
    });

  it("creates an invoice (201, Location) and replays it byte for byte (200)", async () => {
    const body = JSON.stringify({ amount: { amount: "149900", currency: "RUB" }, method: "card" });
    const key = crypto.randomUUID();
    const created = await post("/v1/invoices", body, {
      "idempotency-key": key,
      "x-request-id": "req-embed-1",
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(created.headers.get("x-request-id")).toBe("req-embed-1");
    const text = await created.text();
    const invoice = JSON.parse(text);
    expect(invoice).toMatchObject({
      status: "created",
      amount: { amount: "149900", currency: "RUB" },
      pinnedMethod: "card",
    });
    expect(created.headers.get("location")).toBe(`/v1/invoices/${invoice.id}`);

    const replay = await post("/v1/invoices", body, { "idempotency-key": key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(text);
  });

  it("refuses an unauthenticated call with 401 before looking at its body", async () => {
    const response = await post("/v1/invoices", "{not json", { authorization: "" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "unauthorized", status: 401 });
  });

  it("answers the HTTP errors the embedding finds itself as Kopek problems", async () => {
    const invalid = await post("/v1/invoices", "{not json");
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: "invalid_json" });

    const large = await post("/v1/invoices", JSON.stringify({ description: "x".repeat(70_000) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ code: "payload_too_large" });

    const text = await post("/v1/invoices", "amount=1", { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ code: "unsupported_media_type" });

    const unknown = await fetch(`${baseUrl}/v2/invoices`);
    expect(unknown.status).toBe(404);
  });

  it("answers a body nested 10,000 deep with 400 invalid_json, not a crash", async () => {
    const deep = await post("/v1/invoices", `${"[".repeat(10_000)}${"]".repeat(10_000)}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      code: "invalid_json",
      detail: expect.stringMatching(/nested/),
    });
    const wide = JSON.stringify({
      amount: { amount: "100", currency: "RUB" },
      metadata: { a: Array(2000).fill(1) },
    });
    expect(await (await post("/v1/invoices", wide)).json()).toMatchObject({ code: "invalid_json" });
  });

  it("leaves the API's rules to the core: validation and method_unavailable", async () => {
    const invalid = await post("/v1/invoices", JSON.stringify({ amount: { amount: 100, currency: "rub" } }));
    expect(invalid.status).toBe(422);
    const problem = (await invalid.json()) as { errors: { pointer: string }[] };
    expect(problem.errors.map((issue) => issue.pointer).sort()).toEqual([
      "#/amount/amount",
      "#/amount/currency",
    ]);

    const noStoredCharge = await embedded.addProject("invoices-only", { storedMethodCharge: false });
    const refused = await post(
      "/v1/subscriptions",
      JSON.stringify({
        amount: { amount: "149900", currency: "RUB" },
        period: { unit: "month", count: 1 },
        method: "card",
        providerMethodRef: "pm_sandbox_1",
      }),
      { authorization: `Bearer ${noStoredCharge}` },
    );
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: "method_unavailable" });
  });

  it("answers a key revoked after it was used with 401, even when the body is what is wrong", async () => {
    const revokedKey = await embedded.addProject("revoked-shop");
    const as = (body: string, headers: Record<string, string> = {}) =>
      post("/v1/invoices", body, { authorization: `Bearer ${revokedKey}`, ...headers });
    expect((await as(JSON.stringify({ amount: { amount: "100", currency: "RUB" } }))).status).toBe(201);
    (await embedded.storage.revokeApiKey(hashApiKey(revokedKey), new Date()))._unsafeUnwrap();
    const answers = [
      await as("{not json"),
      await as("hello", { "content-type": "text/plain" }),
      await as("{}"),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
  });

  it("lists with the query string, and cancels a POST without a body", async () => {
    const body = JSON.stringify({ amount: { amount: "100", currency: "RUB" } });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      ids.unshift(((await (await post("/v1/invoices", body)).json()) as { id: string }).id);
    }
    const headers = { authorization: `Bearer ${apiKey}` };
    const listed = await fetch(`${baseUrl}/v1/invoices?limit=1&status=created`, { headers });
    const page = (await listed.json()) as { data: { id: string }[]; nextCursor: string | null };
    expect(page.data.map((invoice) => invoice.id)).toEqual([ids[0]]);
    expect(page.nextCursor).toEqual(expect.any(String));
    const twice = await fetch(`${baseUrl}/v1/invoices?limit=1&limit=2`, { headers });
    expect(twice.status).toBe(422);

    const canceled = await fetch(`${baseUrl}/v1/invoices/${ids[0]}/cancel`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": crypto.randomUUID() },
    });
    expect(canceled.status).toBe(200);
    expect(await canceled.json()).toMatchObject({ status: "canceled" });
  });
});

describe("the example as a program", () => {
  it("prints a curl line that creates an invoice in a plain POSIX shell, with a new key each time", async () => {
    const cwd = new URL("..", import.meta.url).pathname;
    const child = spawn(process.execPath, ["--conditions=dev-source", "--import", "tsx", "src/main.ts"], {
      cwd,
      env: { PATH: process.env.PATH ?? "", PORT: "0" },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      for (let i = 0; i < 300 && !/^curl .*$/m.test(stdout); i += 1)
        await new Promise((r) => setTimeout(r, 50));
      const curl = stdout.match(/^curl .*$/m)?.[0] ?? "";
      expect(curl).not.toMatch(/uuidgen|\$RANDOM/);
      // dash, not bash: the line must work with stock POSIX tools.
      const sh = existsSync("/usr/bin/dash") ? "/usr/bin/dash" : "/bin/sh";
      const ids = [];
      for (let i = 0; i < 2; i += 1) {
        const { stdout: answer } = await promisify(execFile)(sh, ["-c", curl]);
        expect(answer).toMatch(/^HTTP\/1\.1 201 /);
        ids.push(JSON.parse(answer.slice(answer.indexOf("{"))).id);
      }
      expect(ids[0]).not.toBe(ids[1]); // two keys, two invoices: not a replay
    } finally {
      child.kill("SIGTERM");
    }
  }, 30_000);
});
