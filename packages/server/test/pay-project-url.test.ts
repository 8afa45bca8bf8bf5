import { describe, expect, it } from "vitest";
import { createProjectWithKey } from "../src/startup/project-setup.js";
import { buildTestApp, json, PUBLIC_URL, type TestApp } from "./helper.js";
import { openPage, payAtSandbox, SELF, submit } from "./pay-page.js";

// API.md 10.3: the page's URL names the invoice's project, /pay/{projectId}/{invoiceId}, so that every
// lookup it makes is by project (storage sharded by project); links handed out before, /pay/{invoiceId},
// still work. The CSRF token is bound to the invoice alone.

const formAction = (body: string) => /<form method="post" action="([^"]+)"/.exec(body)?.[1] ?? null;
const tokenIn = (body: string) => /name="token" value="([^"]+)"/.exec(body)?.[1] ?? "";
const status = async (t: TestApp, id: string) => json(await t.get(`/v1/invoices/${id}`)).status;
const paymentsOf = async (t: TestApp, id: string) =>
  json(await t.get(`/v1/payments?invoiceId=${id}`)).data as { id: string; status: string }[];

async function newInvoice(t: TestApp) {
  const created = await t.post("/v1/invoices", { amount: { amount: "149900", currency: "RUB" } });
  expect(created.statusCode).toBe(201);
  return json(created) as { id: string; paymentUrl: string };
}

/** A pending attempt started on the canonical page, and the payment it made (the payer still at the sandbox). */
async function startOnPage(t: TestApp, id: string) {
  const { token } = await openPage(t, id);
  expect((await submit(t, id, { token: token ?? "", method: "card" })).statusCode).toBe(303);
  const [payment] = await paymentsOf(t, id);
  if (payment === undefined) throw new Error("no payment started");
  return payment;
}

describe("the payment page's URL names the invoice's project", () => {
  it("a new invoice's paymentUrl is /pay/{projectId}/{invoiceId}, and the page there is paid end to end", async () => {
    const t = await buildTestApp();
    const { id, paymentUrl } = await newInvoice(t);
    const path = `/pay/${t.project.id}/${id}`;
    expect(paymentUrl).toBe(`${PUBLIC_URL}${path}`);
    const page = await t.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    // The form posts to the URL the page was served at; the stylesheet is still found.
    expect(formAction(page.body)).toBe(path);
    const css = await t.inject({ method: "GET", url: "/pay/assets/pay.css" });
    expect([css.statusCode, css.headers["content-type"]]).toEqual([200, "text/css; charset=utf-8"]);

    const { chosen, returned, returnPath } = await payAtSandbox(t, id, "card");
    expect(chosen.statusCode).toBe(303);
    // The provider sends the payer back under the project too.
    expect(returnPath).toMatch(new RegExp(`^${path}/return\\?payment=[0-9a-f-]{36}$`));
    expect(returned?.statusCode).toBe(200);
    expect(returned?.body).toContain("Paid. Thank you!");
    expect(await status(t, id)).toBe("paid");
    expect((await paymentsOf(t, id)).map((p) => p.status)).toEqual(["succeeded"]);
  });

  it("back before the provider decided: 202, and the link to look again names the project", async () => {
    const t = await buildTestApp();
    const { id } = await newInvoice(t);
    const payment = await startOnPage(t, id);
    const back = `/pay/${t.project.id}/${id}/return?payment=${payment.id}`;
    const pending = await t.inject({ method: "GET", url: back });
    expect(pending.statusCode).toBe(202);
    expect(pending.body).toContain(`href="${back}"`);
  });

  it("an invoice under another project's id: 404 for GET, POST and the return; nothing started or paid", async () => {
    const t = await buildTestApp();
    const other = (
      await createProjectWithKey(t.storage, { name: "other shop", provider: t.project.provider })
    )._unsafeUnwrap().project.id;
    const { id } = await newInvoice(t);
    const { token } = await openPage(t, id);
    const form = { token: token ?? "", method: "card" };
    for (const project of [other, crypto.randomUUID(), "not-a-uuid"]) {
      const crossed = { inject: t.inject, project: { id: project } };
      const page = await t.inject({ method: "GET", url: `/pay/${project}/${id}` });
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain("<form");
      expect((await submit(crossed, id, form)).statusCode).toBe(404);
    }
    expect(await paymentsOf(t, id)).toEqual([]);

    // A real attempt, decided at the sandbox; its return under another project is not found, and settles nothing.
    const payment = await startOnPage(t, id);
    const checkoutPath = `/sandbox/checkout/${await providerIdOf(t, payment.id)}`;
    const checkout = await t.inject({ method: "GET", url: checkoutPath });
    const decided = await t.inject({
      method: "POST",
      url: checkoutPath,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: SELF },
      payload: new URLSearchParams({ token: tokenIn(checkout.body), decision: "succeed" }).toString(),
    });
    expect(decided.statusCode).toBe(303);
    const crossedReturn = await t.inject({
      method: "GET",
      url: `/pay/${other}/${id}/return?payment=${payment.id}`,
    });
    expect(crossedReturn.statusCode).toBe(404);
    expect(await status(t, id)).toBe("created");
    expect((await paymentsOf(t, id)).map((p) => p.status)).toEqual(["pending"]);
  });

  it("a legacy /pay/{invoiceId} link still serves the page, takes a method, and its return still works", async () => {
    const t = await buildTestApp();
    const { id } = await newInvoice(t);
    const legacy = { inject: t.inject };
    const { page, token } = await openPage(legacy, id);
    expect(page.statusCode).toBe(200);
    // The form of a page opened by a legacy link posts to the canonical URL: the project is known by then.
    expect(formAction(page.body)).toBe(`/pay/${t.project.id}/${id}`);
    // A form served before the change posts to the legacy URL: still taken, the same token.
    expect((await submit(legacy, id, { token: token ?? "", method: "card" })).statusCode).toBe(303);
    const [payment] = await paymentsOf(t, id);
    const pending = await t.inject({ method: "GET", url: `/pay/${id}/return?payment=${payment?.id}` });
    expect(pending.statusCode).toBe(202);
    expect(pending.body).toContain(`href="/pay/${t.project.id}/${id}/return?payment=${payment?.id}"`);
    // The same pending attempt, decided at the sandbox; the legacy return then shows the receipt.
    expect((await payAtSandbox(legacy, id, "card")).returned?.statusCode).toBe(200);
    expect(await status(t, id)).toBe("paid");
    const back = await t.inject({ method: "GET", url: `/pay/${id}/return?payment=${payment?.id}` });
    expect([back.statusCode, back.body.includes("Paid. Thank you!")]).toEqual([200, true]);
    const receipt = await t.inject({ method: "GET", url: `/pay/${id}` });
    expect(receipt.body).toContain("Paid. Thank you!");
  });
});

/** The sandbox's id of a payment (its checkout's path), as the API shows it. */
async function providerIdOf(t: TestApp, paymentId: string): Promise<string> {
  return json(await t.get(`/v1/payments/${paymentId}`)).providerPaymentId as string;
}
