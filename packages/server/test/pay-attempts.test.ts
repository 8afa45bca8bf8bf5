import { MAX_INVOICE_ATTEMPTS } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { buildTestApp, json } from "./helper.js";
import { createInvoice, openPage, payAtSandbox, submit } from "./pay-page.js";

describe("the payment page after the invoice's last attempt", () => {
  it(`says in the payer's language that it cannot be paid here, and the API shows why`, async () => {
    const t = await buildTestApp();
    const id = await createInvoice(t);
    const { token: before } = await openPage(t, id);
    for (let i = 0; i < MAX_INVOICE_ATTEMPTS; i++) {
      const { chosen } = await payAtSandbox(t, id, i % 2 === 0 ? "card" : "sbp", "decline");
      expect(chosen.statusCode).toBe(303);
    }
    const { page, token } = await openPage(t, id);
    expect(page.statusCode).toBe(200);
    expect(token).toBeNull();
    expect(page.body).toContain("can no longer be paid here");
    expect(page.body).toContain("contact the merchant");

    const ru = await t.inject({ method: "GET", url: `/pay/${id}`, headers: { "accept-language": "ru" } });
    expect(ru.body).toContain("оплатить его здесь больше нельзя");
    expect(ru.body).toContain("свяжитесь с продавцом");

    // A form from before still makes no attempt: 409 with the same words.
    const late = await submit(t, id, { token: before ?? "", method: "card" });
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain("can no longer be paid here");

    const invoice = json(await t.get(`/v1/invoices/${id}`));
    expect(invoice).toMatchObject({
      status: "created",
      attempts: MAX_INVOICE_ATTEMPTS,
      maxAttempts: MAX_INVOICE_ATTEMPTS,
    });
    const payments = json(await t.get(`/v1/payments?invoiceId=${id}&limit=100`)).data as unknown[];
    expect(payments).toHaveLength(MAX_INVOICE_ATTEMPTS);
  });
});
