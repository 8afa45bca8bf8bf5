import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { startShop } from "../src/shop.js";

const shop = await startShop(0);
const hooks: string[] = [];
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    hooks.push(body);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
afterAll(async () => {
  await shop.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function until(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100 && !(await check()); i++) await sleep(50);
  return check();
}

it("creates and replays an invoice, lists with limit, is paid through the page, and delivers the webhook", async () => {
  const { projectId, apiKey } = await shop.addProject("shop");
  await shop.addWebhook(projectId, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
  const kopek = `${shop.url}/kopek`;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${kopek}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...init.headers },
    });
  const invoice = JSON.stringify({ amount: { amount: "149900", currency: "RUB" }, description: "Coffee" });
  const key = randomUUID();
  const created = await api("/v1/invoices", {
    method: "POST",
    body: invoice,
    headers: { "idempotency-key": key },
  });
  expect(created.status).toBe(201);
  const { id, paymentUrl } = (await created.json()) as { id: string; paymentUrl: string };
  expect(paymentUrl).toBe(`${kopek}/pay/${projectId}/${id}`);
  const replayed = await api("/v1/invoices", {
    method: "POST",
    body: invoice,
    headers: { "idempotency-key": key },
  });
  expect([replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
  await api("/v1/invoices", { method: "POST", body: invoice, headers: { "idempotency-key": randomUUID() } });
  const listed = (await (await api("/v1/invoices?limit=1")).json()) as { data: unknown[] };
  expect(listed.data).toHaveLength(1);

  // The payer: the page, a method, the sandbox's checkout, "Succeed".
  const submit = async (url: string, fields: Record<string, string>) => {
    const html = await (await fetch(url)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
    // As a browser does: the form posts to its own action, resolved against the page.
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? "", url);
    const posted = await fetch(action, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: shop.url },
      body: new URLSearchParams({ token, ...fields }),
    });
    expect(posted.status).toBe(303);
    return posted.headers.get("location") ?? "";
  };
  const checkout = await submit(paymentUrl, { method: "card" });
  await submit(checkout, { decision: "succeed" });
  const status = async () => ((await (await api(`/v1/invoices/${id}`)).json()) as { status: string }).status;
  expect(await until(async () => (await status()) === "paid")).toBe(true);
  expect(await until(() => hooks.some((hook) => JSON.parse(hook).type === "invoice.paid"))).toBe(true);

  // The shop's own routes are untouched.
  expect(await (await fetch(`${shop.url}/`)).json()).toEqual({ shop: "open", kopek });
});
