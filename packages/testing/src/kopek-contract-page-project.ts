import { describe, expect, it } from "vitest";
import { sampleProject } from "./fixtures.js";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
  payThroughProvider,
} from "./kopek-harness.js";

async function invoice(h: KopekHarness): Promise<Record<string, unknown>> {
  return json(await h.call("/v1/invoices", invoiceBody()));
}

/**
 * API.md 10.3: the hosted page's URL names the invoice's project, `/pay/{projectId}/{invoiceId}`, and
 * every lookup the page makes is by project; an invoice named with another project is not found.
 * Links handed out before, `/pay/{invoiceId}`, are still served.
 */
export function registerPageProjectTests(options: KopekContractOptions): void {
  describe("the hosted page names the invoice's project", () => {
    it("links to the page under the project, and pays the invoice there", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const body = await invoice(h);
      const invoiceId = body.id as string;
      const projectId = h.project.id;
      expect(body.paymentUrl).toBe(`https://pay.example.test/pay/${projectId}/${invoiceId}`);
      const page = (await h.kopek.paymentPage(invoiceId, projectId))._unsafeUnwrap();
      expect(page).toMatchObject({ state: "payable", invoiceId, projectId });
      const checked = await payThroughProvider(h, invoiceId, "card", "succeed", projectId);
      expect(checked.payment.status).toBe("succeeded");
      expect(checked.invoice.status).toBe("paid");
      expect((await h.kopek.paymentPage(invoiceId, projectId))._unsafeUnwrap().state).toBe("paid");
    });

    it("answers not_found for an invoice named with another project, and starts nothing", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const other = sampleProject();
      (await h.storage.saveProject(other))._unsafeUnwrap();
      const invoiceId = (await invoice(h)).id as string;
      const projectId = h.project.id;
      const notFound = { code: "not_found" };
      expect((await h.kopek.paymentPage(invoiceId, other.id))._unsafeUnwrapErr()).toEqual(notFound);
      const crossed = await h.kopek.startPayment({ projectId: other.id, invoiceId, method: "card" });
      expect(crossed._unsafeUnwrapErr()).toEqual(notFound);
      expect(json(await h.get("/v1/payments", { invoiceId })).data).toEqual([]);
      const started = (await h.kopek.startPayment({ projectId, invoiceId, method: "card" }))._unsafeUnwrap();
      if (started.kind !== "confirm") throw new Error(`not payable: ${started.kind}`);
      h.provider.confirm(started.payment.providerPaymentId ?? "", "succeed");
      const check = { projectId: other.id, invoiceId, paymentId: started.payment.id };
      expect((await h.kopek.checkPayment(check))._unsafeUnwrapErr()).toEqual(notFound);
      // Nothing was settled by the crossed return: the invoice is paid only when its own page asks.
      expect(json(await h.get(`/v1/invoices/${invoiceId}`)).status).toBe("created");
    });

    it("still serves a legacy link, which names only the invoice", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const invoiceId = (await invoice(h)).id as string;
      const page = (await h.kopek.paymentPage(invoiceId))._unsafeUnwrap();
      expect(page).toMatchObject({ state: "payable", invoiceId, projectId: h.project.id });
      expect((await h.kopek.paymentPage(invoiceId, null))._unsafeUnwrap()).toEqual(page);
      expect((await payThroughProvider(h, invoiceId, "card")).invoice.status).toBe("paid");
    });
  });
}
