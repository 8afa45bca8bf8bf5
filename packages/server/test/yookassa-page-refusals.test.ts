import { startYooKassaEmulator } from "@kopek/provider-yookassa/emulator";
import { describe, expect, it } from "vitest";
import { startProviderServer } from "./provider-server.js";
import { recordMethodRef } from "./test-artifacts.js";
import { startYooKassaServer } from "./yookassa-fixture.js";

// The hosted page over real HTTP against the YooKassa emulator: what it offers an invoice that saves
// the payer's method (API.md 10.5, 10.8), and what it tells the payer when YooKassa does not make the
// payment (10.3).

const savingInvoice = { savePaymentMethod: true };
/** A payer on the page choosing card, their browser in `language`: the answer as it came. */
async function chooseCard(url: string, invoiceId: string, language: string): Promise<Response> {
  const page = await fetch(`${url}/pay/${invoiceId}`, { headers: { "accept-language": language } });
  const token = /name="token" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  return fetch(`${url}/pay/${invoiceId}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: url,
      "accept-language": language,
    },
    body: new URLSearchParams({ token, method: "card" }).toString(),
  });
}

const buttons = (html: string) => [...html.matchAll(/name="method" value="([a-z]+)"/g)].map((m) => m[1]);

describe("a YooKassa project whose storedMethods is card", () => {
  it("offers only card on a save-the-method invoice, refuses SBP there, and a pinned SBP at creation", async () => {
    const s = await startYooKassaServer({ notify: false }); // storedMethods: ["card"]
    try {
      const saving = await s.createInvoice(savingInvoice);
      expect(buttons(await (await fetch(`${s.url}/pay/${saving.id}`)).text())).toEqual(["card"]);
      expect((await s.choose(saving.id, "sbp")).status).toBe(400);
      expect(s.emulator.books.payments.size).toBe(0);
      // An invoice that saves nothing offers every method YooKassa takes.
      const plain = await s.createInvoice();
      expect(buttons(await (await fetch(`${s.url}/pay/${plain.id}`)).text())).toEqual(["card", "sbp"]);
      const pinned = await s.post("/v1/invoices", {
        amount: { amount: "149900", currency: "RUB" },
        method: "sbp",
        savePaymentMethod: true,
      });
      expect(pinned.status).toBe(422);
      expect(((await pinned.json()) as { code: string }).code).toBe("method_unavailable");
    } finally {
      await s.close();
    }
  });
});

describe("the page when YooKassa does not make the payment", () => {
  it("says 'refused' (RU and EN) for a 4xx, and logs YooKassa's message, never the secret key", async () => {
    const emulator = await startYooKassaEmulator();
    const wrongKey = `test_${"W".repeat(43)}`;
    recordMethodRef(wrongKey);
    const s = await startProviderServer(
      {
        kind: "yookassa",
        shopId: emulator.shopId,
        secretKey: wrongKey,
        storedMethods: ["card"],
        apiUrl: emulator.apiUrl,
      },
      { logName: "yookassa-refusing" },
    );
    try {
      const invoice = await s.createInvoice();
      const ru = await chooseCard(s.url, invoice.id, "ru");
      expect(ru.status).toBe(502);
      const ruText = await ru.text();
      expect(ruText).toContain("Платёжная система отказалась провести этот платёж");
      expect(ruText).not.toContain("не отвечает");
      const en = await chooseCard(s.url, invoice.id, "en");
      expect(en.status).toBe(502);
      const enText = await en.text();
      expect(enText).toContain("The payment provider refused to make this payment");
      expect(enText).not.toContain("could not be reached");

      const logged = s.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const refusals = logged.filter((line) => line.msg === "payment not started: the provider refused it");
      expect(refusals).toHaveLength(2);
      expect(refusals[0]).toMatchObject({
        level: 50,
        invoiceId: invoice.id,
        code: "provider_error",
        providerMessage: expect.stringMatching(/401 invalid_credentials/),
      });
      expect(s.logLines.join("\n")).not.toContain(wrongKey);
      expect((await s.get(`/v1/invoices/${invoice.id}`)).status).toBe("created");
    } finally {
      await s.close();
      await emulator.close();
    }
  });

  it("says 'could not be reached' when YooKassa answers 5xx until Kopek gives up, and logs why", async () => {
    const s = await startYooKassaServer({ notify: false });
    try {
      const invoice = await s.createInvoice();
      s.emulator.failNext(50, "500");
      const chosen = await chooseCard(s.url, invoice.id, "en");
      expect(chosen.status).toBe(502);
      const text = await chosen.text();
      expect(text).toContain("could not be reached");
      expect(text).not.toContain("refused");
      const logged = s.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toContainEqual(
        expect.objectContaining({
          msg: "payment not started: the provider could not be reached",
          code: "provider_unavailable",
          providerMessage: expect.any(String),
        }),
      );
    } finally {
      await s.close();
    }
  });
});
