import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { seeOther } from "../src/pay/pay-routes.js";
import { buildTestApp, json } from "./helper.js";
import { createInvoice, payAtSandbox } from "./pay-page.js";

const IDN = "https://пример.рф/назад?заказ=№1#ок";
const IDN_ASCII =
  "https://xn--e1afmkfd.xn--p1ai/%D0%BD%D0%B0%D0%B7%D0%B0%D0%B4?%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7=%E2%84%961#%D0%BE%D0%BA";

describe("returnUrl in its normalised ASCII form", () => {
  it.each([
    [IDN, IDN_ASCII],
    ["https://Shop.EXAMPLE:443/a/../back?x=%41", "https://shop.example/back?x=%41"],
    ["https://shop.example/caf%C3%A9 and more", "https://shop.example/caf%C3%A9%20and%20more"],
    ["http://bücher.example", "http://xn--bcher-kva.example/"],
  ])("stores and returns %s as %s, and a payer who pays gets a page linking to it", async (given, stored) => {
    const t = await buildTestApp();
    const id = await createInvoice(t, { returnUrl: given });
    expect(json(await t.get(`/v1/invoices/${id}`)).returnUrl).toBe(stored);
    const { returned } = await payAtSandbox(t, id, "card");
    expect(returned?.statusCode).toBe(200);
    expect(returned?.body).toContain(`href="${stored.replaceAll("&", "&amp;")}"`);
    expect(json(await t.get(`/v1/invoices/${id}`)).status).toBe("paid");
    await t.app.close();
  });

  it("a redirect to a non-ASCII URL is sent in ASCII, and one that does not parse is a 502 page, never a raw 500", async () => {
    const t = { app: Fastify() };
    t.app.get("/test-redirect", (request, reply) =>
      seeOther(reply, String((request.query as { to: string }).to), "en", ""),
    );
    const sent = await t.app.inject({ method: "GET", url: `/test-redirect?to=${encodeURIComponent(IDN)}` });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(IDN_ASCII);
    const bad = await t.app.inject({ method: "GET", url: "/test-redirect?to=not%20a%20url" });
    expect(bad.statusCode).toBe(502);
    expect(bad.headers["content-type"]).toBe("text/html; charset=utf-8");
    await t.app.close();
  });
});
