import { manualClock } from "@kopek/testing";
import { describe, expect, it } from "vitest";
import { buildTestApp, json, PUBLIC_URL, type TestApp } from "./helper.js";
import { createInvoice, openPage, payAtSandbox, submit } from "./pay-page.js";

const HOSTILE = `<script>alert("x")</script>&"'`;

async function paidEvents(t: TestApp, id: string): Promise<number> {
  const events = (await t.storage.listEventDeliveries(t.project.id))._unsafeUnwrap();
  return events.filter((e) => e.event.type === "invoice.paid" && e.event.data.id === id).length;
}

const status = async (t: TestApp, id: string) => json(await t.get(`/v1/invoices/${id}`)).status;

/** Every variant of the page: HTML, the strict policy, no script at all, the hostile text escaped. */
function expectSafePage(response: { headers: Record<string, unknown>; body: string }) {
  expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
  const csp = String(response.headers["content-security-policy"]);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("script-src");
  expect(csp).not.toContain("unsafe-inline");
  expect(response.body).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
  expect(response.body).not.toContain(HOSTILE);
}

describe("the payment page refuses", () => {
  it("a missing, wrong or other invoice's token, and a cross-origin post: 403, nothing paid", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t);
    const other = await createInvoice(t);
    const { token } = await openPage(t, id);
    const { token: otherToken } = await openPage(t, other);
    const method = "card";
    const refused = [
      await submit(t, id, { method }),
      await submit(t, id, { method, token: "forged" }),
      await submit(t, id, { method, token: `${token}x` }),
      await submit(t, id, { method, token: otherToken ?? "" }),
      await submit(t, id, { method, token: token ?? "" }, { origin: "https://evil.example" }),
      await submit(t, id, { method, token: token ?? "" }, { origin: "null" }),
      await submit(t, id, { method, token: token ?? "" }, { referer: "https://evil.example/pay" }),
      // Neither Origin nor Referer: cannot be told from a cross-site post.
      await submit(t, id, { method, token: token ?? "" }, {}),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expectSafePage(response);
    }
    expect(await status(t, id)).toBe("created");
    expect(await paidEvents(t, id)).toBe(0);
    // A same-origin Referer without Origin (older browsers) is accepted (a browser's Host has no default port):
    // on to the provider's checkout, and nothing is paid by the page itself (API.md 10.1).
    const accepted = await submit(
      t,
      id,
      { method, token: token ?? "" },
      { host: "pay.example", referer: `http://pay.example/pay/${id}` },
    );
    expect(accepted.statusCode).toBe(303);
    expect(String(accepted.headers.location)).toMatch(
      /^https:\/\/pay\.example\.test\/sandbox\/checkout\/pay_[0-9a-f]{32}$/,
    );
    expect(await status(t, id)).toBe("created");
    expect(await paidEvents(t, id)).toBe(0);
  });

  it("nothing from the public URL's origin: a proxy ending TLS makes the payer's https origin differ from the server's", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t);
    const { token } = await openPage(t, id);
    // The server sees plain http on its own host; the payer's browser was on the public https URL.
    const accepted = await submit(
      t,
      id,
      { method: "card", token: token ?? "" },
      { host: "10.0.0.5:3000", origin: PUBLIC_URL },
    );
    expect(accepted.statusCode).toBe(303);
  });

  it("an expired invoice: its page, never a payment", async () => {
    const clock = manualClock(new Date());
    const t = await buildTestApp({ clock });
    const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
    const id = await createInvoice(t, { description: HOSTILE, expiresAt });
    const { token } = await openPage(t, id);
    clock.advance(61_000);
    const page = await t.inject({ method: "GET", url: `/pay/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("This invoice has expired");
    expect(page.body).not.toContain("<form");
    expectSafePage(page);
    const posted = await submit(t, id, { token: token ?? "", method: "card" });
    expect(posted.statusCode).toBe(409);
    expect(posted.body).toContain("This invoice has expired");
    expectSafePage(posted);
    expect(await status(t, id)).toBe("expired");
    expect(await paidEvents(t, id)).toBe(0);
  });

  it("a canceled invoice: its page, never a payment", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t, { description: HOSTILE });
    const { token } = await openPage(t, id);
    expect((await t.post(`/v1/invoices/${id}/cancel`, {})).statusCode).toBe(200);
    const page = await t.inject({ method: "GET", url: `/pay/${id}` });
    expect(page.body).toContain("This invoice was canceled");
    expect(page.body).not.toContain("<form");
    expectSafePage(page);
    const posted = await submit(t, id, { token: token ?? "", method: "card" });
    expect(posted.statusCode).toBe(409);
    expect(posted.body).toContain("This invoice was canceled");
    expectSafePage(posted);
    expect(await status(t, id)).toBe("canceled");
    expect(await paidEvents(t, id)).toBe(0);
  });

  it("an already-paid invoice: the receipt, never a second payment or a second invoice.paid", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t, {
      description: HOSTILE,
      returnUrl: "https://shop.example/done?a=1&b=2",
    });
    // A second tab, opened before paying, still holds the form.
    const { token } = await openPage(t, id);
    const { returned } = await payAtSandbox(t, id, "card");
    expect(returned?.statusCode).toBe(200);
    expect(returned?.body).toContain("Paid. Thank you!");
    expect(returned?.body).toContain("https://shop.example/done?a=1&amp;b=2");
    const before = json(await t.get(`/v1/invoices/${id}`));
    expect(before.status).toBe("paid");
    const again = await submit(t, id, { token: token ?? "", method: "sbp" });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain("Paid. Thank you!");
    const receipt = await t.inject({ method: "GET", url: `/pay/${id}` });
    expect(receipt.body).toContain("Paid. Thank you!");
    expect(receipt.body).not.toContain("<form");
    expectSafePage(receipt);
    expect(receipt.headers["content-security-policy"]).toContain("form-action 'self';");
    expect(json(await t.get(`/v1/invoices/${id}`))).toEqual(before);
    expect(await paidEvents(t, id)).toBe(1);
    expect(json(await t.get(`/v1/payments?invoiceId=${id}`)).data).toHaveLength(1);
  });

  it("a decline at the provider: the page again with the failure, and the invoice stays payable", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t, { description: HOSTILE });
    const { page } = await openPage(t, id);
    expectSafePage(page);
    expect(page.body).toContain("&lt;script&gt;");
    const { checkout, returned } = await payAtSandbox(t, id, "card", "decline");
    expect(checkout?.body).toContain("TEST");
    expectSafePage(checkout as { headers: Record<string, unknown>; body: string });
    expect(returned?.statusCode).toBe(200);
    expect(returned?.body).toContain("The payment was declined");
    expect(returned?.body).toContain("<form");
    expectSafePage(returned as { headers: Record<string, unknown>; body: string });
    expect(await status(t, id)).toBe("created");
    expect(await paidEvents(t, id)).toBe(0);
    const paid = await payAtSandbox(t, id, "card");
    expect(paid.returned?.body).toContain("Paid. Thank you!");
    expect(await status(t, id)).toBe("paid");
  });

  it("back from the provider before it decided: a waiting page, nothing settled", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t);
    const { token } = await openPage(t, id);
    const chosen = await submit(t, id, { token: token ?? "", method: "sbp" });
    const payments = json(await t.get(`/v1/payments?invoiceId=${id}`)).data;
    expect(payments).toMatchObject([{ status: "pending", method: "sbp" }]);
    expect(String(chosen.headers.location)).toBe(
      `${PUBLIC_URL}/sandbox/checkout/${payments[0].providerPaymentId}`,
    );
    const early = await t.inject({ method: "GET", url: `/pay/${id}/return?payment=${payments[0].id}` });
    expect(early.statusCode).toBe(202);
    expect(early.body).toContain("Waiting for the payment provider");
    expectSafePage(early);
    expect(await status(t, id)).toBe("created");
  });

  it("a forged checkout or return: 403 or 404, nothing settled", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t);
    const other = await createInvoice(t);
    const { token } = await openPage(t, id);
    const chosen = await submit(t, id, { token: token ?? "", method: "card" });
    const checkoutPath = new URL(String(chosen.headers.location)).pathname;
    const form = (fields: Record<string, string>, origin = "http://localhost:80") =>
      t.inject({
        method: "POST",
        url: checkoutPath,
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        payload: new URLSearchParams(fields).toString(),
      });
    expect((await form({ decision: "succeed", token: "forged" })).statusCode).toBe(403);
    expect((await form({ decision: "succeed", token: token ?? "" })).statusCode).toBe(403);
    const checkout = await t.inject({ method: "GET", url: checkoutPath });
    const checkoutToken = /name="token" value="([^"]+)"/.exec(checkout.body)?.[1] ?? "";
    expect(
      (await form({ decision: "succeed", token: checkoutToken }, "https://evil.example")).statusCode,
    ).toBe(403);
    expect((await form({ decision: "refund", token: checkoutToken })).statusCode).toBe(400);
    expect((await t.inject({ method: "GET", url: "/sandbox/checkout/pay_0123" })).statusCode).toBe(404);
    const [payment] = json(await t.get(`/v1/payments?invoiceId=${id}`)).data;
    // Another invoice's return URL with this payment: nothing of it is shown or settled.
    const crossed = await t.inject({ method: "GET", url: `/pay/${other}/return?payment=${payment.id}` });
    expect(crossed.statusCode).toBe(404);
    expect((await t.inject({ method: "GET", url: `/pay/${id}/return?payment=nope` })).statusCode).toBe(404);
    expect(await status(t, id)).toBe("created");
    expect(json(await t.get(`/v1/payments/${payment.id}`)).status).toBe("pending");
  });

  it("an unknown invoice, a method the invoice does not allow and a bad choice: safe pages, nothing paid", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t, { method: "sbp" });
    const { token } = await openPage(t, id);
    const unknown = await t.inject({ method: "GET", url: "/pay/0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b" });
    expect(unknown.statusCode).toBe(404);
    expectSafePage(unknown);
    const notAUuid = await t.inject({ method: "GET", url: `/pay/${encodeURIComponent(HOSTILE)}` });
    expect(notAUuid.statusCode).toBe(404);
    expectSafePage(notAUuid);
    const wrongMethod = await submit(t, id, { token: token ?? "", method: "card" });
    expect(wrongMethod.statusCode).toBe(400);
    expectSafePage(wrongMethod);
    const badChoice = await submit(t, id, { token: token ?? "", method: "refund:sbp" });
    expect(badChoice.statusCode).toBe(400);
    const noChoice = await submit(t, id, { token: token ?? "" });
    expect(noChoice.statusCode).toBe(400);
    expect(await status(t, id)).toBe("created");
  });
});
