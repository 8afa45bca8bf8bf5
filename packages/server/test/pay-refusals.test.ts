import { manualClock } from "@kopek/core/testing";
import { describe, expect, it } from "vitest";
import { buildTestApp, json, PUBLIC_URL, type TestApp } from "./helper.js";
import { createInvoice, openPage, submit } from "./pay-page.js";

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
    const choice = "pay:card";
    const refused = [
      await submit(t, id, { choice }),
      await submit(t, id, { choice, token: "forged" }),
      await submit(t, id, { choice, token: `${token}x` }),
      await submit(t, id, { choice, token: otherToken ?? "" }),
      await submit(t, id, { choice, token: token ?? "" }, { origin: "https://evil.example" }),
      await submit(t, id, { choice, token: token ?? "" }, { origin: "null" }),
      await submit(t, id, { choice, token: token ?? "" }, { referer: "https://evil.example/pay" }),
      // Neither Origin nor Referer: cannot be told from a cross-site post.
      await submit(t, id, { choice, token: token ?? "" }, {}),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expectSafePage(response);
    }
    expect(await status(t, id)).toBe("created");
    expect(await paidEvents(t, id)).toBe(0);
    // A same-origin Referer without Origin (older browsers) is accepted (a browser's Host has no default port).
    const paid = await submit(
      t,
      id,
      { choice, token: token ?? "" },
      { host: "pay.example", referer: `http://pay.example/pay/${id}` },
    );
    expect(paid.statusCode).toBe(303);
    expect(await status(t, id)).toBe("paid");
  });

  it("nothing from the public URL's origin: a proxy ending TLS makes the payer's https origin differ from the server's", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t);
    const { token } = await openPage(t, id);
    // The server sees plain http on its own host; the payer's browser was on the public https URL.
    const paid = await submit(
      t,
      id,
      { choice: "pay:card", token: token ?? "" },
      { host: "10.0.0.5:3000", origin: PUBLIC_URL },
    );
    expect(paid.statusCode).toBe(303);
    expect(await status(t, id)).toBe("paid");
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
    const posted = await submit(t, id, { token: token ?? "", choice: "pay:card" });
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
    const posted = await submit(t, id, { token: token ?? "", choice: "pay:card" });
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
    const { token } = await openPage(t, id);
    const first = await submit(t, id, { token: token ?? "", choice: "pay:card" });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe("https://shop.example/done?a=1&b=2");
    const before = json(await t.get(`/v1/invoices/${id}`));
    const again = await submit(t, id, { token: token ?? "", choice: "pay:sbp" });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/pay/${id}`);
    const receipt = await t.inject({ method: "GET", url: `/pay/${id}` });
    expect(receipt.body).toContain("Paid. Thank you!");
    expect(receipt.body).not.toContain("<form");
    expect(receipt.body).toContain("https://shop.example/done?a=1&amp;b=2");
    expectSafePage(receipt);
    expect(receipt.headers["content-security-policy"]).toContain("form-action 'self' https://shop.example");
    expect(json(await t.get(`/v1/invoices/${id}`))).toEqual(before);
    expect(await paidEvents(t, id)).toBe(1);
  });

  it("a decline: the failure page, and the invoice stays payable", async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t, { description: HOSTILE });
    const { page, token } = await openPage(t, id);
    expectSafePage(page);
    expect(page.body).toContain("&lt;script&gt;");
    const declined = await submit(t, id, { token: token ?? "", choice: "decline:card" });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain("The payment was declined");
    expect(declined.body).toContain("<form");
    expectSafePage(declined);
    expect(await status(t, id)).toBe("created");
    expect(await paidEvents(t, id)).toBe(0);
    const paid = await submit(t, id, { token: token ?? "", choice: "pay:card" });
    expect(paid.statusCode).toBe(303);
    expect(await status(t, id)).toBe("paid");
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
    const wrongMethod = await submit(t, id, { token: token ?? "", choice: "pay:card" });
    expect(wrongMethod.statusCode).toBe(400);
    expectSafePage(wrongMethod);
    const badChoice = await submit(t, id, { token: token ?? "", choice: "refund:sbp" });
    expect(badChoice.statusCode).toBe(400);
    expect(await status(t, id)).toBe("created");
  });
});
