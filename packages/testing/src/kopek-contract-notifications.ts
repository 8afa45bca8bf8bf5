import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createHarness,
  invoiceBody,
  json,
  type KopekContractOptions,
  type KopekHarness,
} from "./kopek-harness.js";

async function startedPayment(h: KopekHarness) {
  const invoiceId = json(await h.call("/v1/invoices", invoiceBody())).id as string;
  const started = (await h.kopek.startPayment({ invoiceId, method: "card" }))._unsafeUnwrap();
  if (started.kind !== "confirm") throw new Error("not payable");
  return { invoiceId, providerPaymentId: started.payment.providerPaymentId as string };
}

const notify = (
  h: KopekHarness,
  providerPaymentId: string,
  overrides: { projectId?: string; kind?: string } = {},
) =>
  h.kopek.providerNotification({
    projectId: overrides.projectId ?? h.project.id,
    providerKind: overrides.kind ?? h.project.provider.kind,
    notification: h.provider.notificationOf(providerPaymentId),
  });

const invoiceStatus = async (h: KopekHarness, id: string) => json(await h.get(`/v1/invoices/${id}`)).status;

/** API.md 10.4: a notification names a payment; Kopek asks the provider and settles on its answer. */
export function registerNotificationTests(options: KopekContractOptions): void {
  describe("provider notifications", () => {
    it("settles on the provider's answer, once, whatever the notification says and however often", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const { invoiceId, providerPaymentId } = await startedPayment(h);
      // Before the payer decided: the provider says pending, so nothing changes.
      expect((await notify(h, providerPaymentId))._unsafeUnwrap()).toEqual(h.provider.notificationAnswer);
      expect(await invoiceStatus(h, invoiceId)).toBe("created");
      h.provider.confirm(providerPaymentId, "succeed");
      for (let i = 0; i < 3; i++) expect((await notify(h, providerPaymentId)).isOk()).toBe(true);
      expect(await invoiceStatus(h, invoiceId)).toBe("paid");
      const paid = (await h.storage.inspect()).events?.filter((e) => e.type === "invoice.paid") ?? [];
      expect(paid.filter((e) => JSON.stringify(e).includes(invoiceId))).toHaveLength(1);
    });

    it("refuses, changing nothing: another project or provider kind, a payment it does not know, a body that is not a notification", async () => {
      const h = await createHarness(options, { paymentPage: "kopek" });
      const { invoiceId, providerPaymentId } = await startedPayment(h);
      h.provider.confirm(providerPaymentId, "succeed");
      const code = async (result: Promise<{ isErr(): boolean; _unsafeUnwrapErr(): { code: string } }>) =>
        (await result)._unsafeUnwrapErr().code;
      expect(await code(notify(h, providerPaymentId, { projectId: randomUUID() }))).toBe("not_found");
      expect(await code(notify(h, providerPaymentId, { projectId: "not-a-uuid" }))).toBe("not_found");
      expect(await code(notify(h, providerPaymentId, { kind: "yookassa" }))).toBe("not_found");
      const garbage = h.kopek.providerNotification({
        projectId: h.project.id,
        providerKind: h.project.provider.kind,
        notification: { headers: {}, body: "<xml>paid</xml>" },
      });
      expect(await code(garbage)).toBe("bad_request");
      expect(await invoiceStatus(h, invoiceId)).toBe("created");
      // A payment of another project, named in this project's URL, is unknown here.
      const other = await createHarness(
        { ...options, createStorage: async () => h.storage },
        { paymentPage: "kopek" },
      );
      const theirs = await startedPayment(other);
      const crossed = h.kopek.providerNotification({
        projectId: h.project.id,
        providerKind: h.project.provider.kind,
        notification: other.provider.notificationOf(theirs.providerPaymentId),
      });
      expect(await code(crossed)).toBe("not_found");
    });
  });
}
