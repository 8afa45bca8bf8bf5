import { randomUUID } from "node:crypto";
import type { DomainEvent, Payment, Refund, RefundListPage } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { samplePayment, sampleRefund } from "./fixtures.js";
import {
  rowsContaining,
  type StorageFactory,
  savedProject,
  unwrap,
  unwrapErr,
} from "./storage-contract-support.js";

const PAGE: RefundListPage = { limit: 100, before: null, paymentId: null, status: null };

function refundEventOf(refund: Refund, type: "refund.succeeded" | "refund.canceled"): DomainEvent {
  return {
    id: randomUUID(),
    projectId: refund.projectId,
    type,
    createdAt: new Date(),
    data: { id: refund.id },
  };
}

const succeededVersion = (refund: Refund, at = new Date("2026-02-01T10:00:00.456Z")): Refund => ({
  ...refund,
  status: "succeeded",
  providerRefundId: `re_${randomUUID()}`,
  succeededAt: at,
  nextCheckAt: null,
  version: refund.version + 1,
});

/** Refunds (API.md 10.6): reserved atomically against their payment, version-checked, credited on success. */
export function describeRefundContract(factory: StorageFactory): void {
  describe("refunds", () => {
    it("stores a reserved refund as given and finds and lists it only in its own project", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const payment = samplePayment(project.id, {
        amount: { amount: "9007199254740993123", currency: "RUB" },
      });
      await unwrap(storage.savePayment(payment, []));
      const big = sampleRefund(payment, { amount: { amount: "9007199254740990001", currency: "RUB" } });
      const small = sampleRefund(payment, { reason: null });
      expect(await unwrap(storage.reserveRefund(big, null, []))).toEqual({ kind: "reserved" });
      expect(await unwrap(storage.reserveRefund(small, null, []))).toEqual({ kind: "reserved" });
      expect(await unwrap(storage.findRefund(project.id, big.id))).toEqual(big);
      expect(await unwrap(storage.findRefund(randomUUID(), big.id))).toBeNull();
      expect(await unwrap(storage.findRefund(project.id, randomUUID()))).toBeNull();
      const other = samplePayment(project.id);
      await unwrap(storage.savePayment(other, []));
      const elsewhere = sampleRefund(other);
      await unwrap(storage.reserveRefund(elsewhere, null, []));
      const ids = async (page: Partial<RefundListPage>) =>
        (await unwrap(storage.listRefunds(project.id, { ...PAGE, ...page }))).map((r) => r.id);
      expect(await ids({})).toEqual([elsewhere.id, small.id, big.id]);
      expect(await ids({ paymentId: payment.id })).toEqual([small.id, big.id]);
      expect(await ids({ paymentId: payment.id, limit: 1 })).toEqual([small.id]);
      expect(await ids({ before: small.id })).toEqual([big.id]);
      expect(await ids({ status: "succeeded" })).toEqual([]);
      expect(await unwrap(storage.listRefunds(randomUUID(), PAGE))).toEqual([]);
    });

    it("refuses a refund beyond what remains: refunded, held by pending refunds, another currency, not succeeded", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const payment = samplePayment(project.id, {
        amount: { amount: "10000", currency: "USD" },
        amountRefunded: "2000",
      });
      await unwrap(storage.savePayment(payment, []));
      const held = sampleRefund(payment, { amount: { amount: "3000", currency: "USD" } });
      await unwrap(storage.reserveRefund(held, null, []));
      const tooMuch = sampleRefund(payment, { amount: { amount: "5001", currency: "USD" } });
      expect(await unwrap(storage.reserveRefund(tooMuch, null, []))).toEqual({
        kind: "exceeds",
        refundable: "5000",
      });
      const euros = sampleRefund(payment, { amount: { amount: "1", currency: "EUR" } });
      expect(await unwrap(storage.reserveRefund(euros, null, []))).toEqual({
        kind: "exceeds",
        refundable: "0",
      });
      const pending = samplePayment(project.id, { status: "pending", succeededAt: null });
      await unwrap(storage.savePayment(pending, []));
      expect(await unwrap(storage.reserveRefund(sampleRefund(pending), null, []))).toEqual({
        kind: "exceeds",
        refundable: "0",
      });
      const unknown = sampleRefund(samplePayment(project.id));
      expect(await unwrap(storage.reserveRefund(unknown, null, []))).toMatchObject({ kind: "exceeds" });
      // Exactly what remains is fine; the same id again is the stored refund, nothing written twice.
      const rest = sampleRefund(payment, { amount: { amount: "5000", currency: "USD" } });
      expect(await unwrap(storage.reserveRefund(rest, null, []))).toEqual({ kind: "reserved" });
      expect(
        await unwrap(storage.reserveRefund({ ...rest, amount: { amount: "1", currency: "USD" } }, null, [])),
      ).toEqual({
        kind: "exists",
        refund: rest,
      });
      for (const refused of [tooMuch, euros, unknown])
        expect(await unwrap(storage.findRefund(project.id, refused.id))).toBeNull();
    });

    it("credits the payment when a pending refund succeeds, with its events; a canceled one frees its amount", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const payment = samplePayment(project.id, { amount: { amount: "5000", currency: "RUB" } });
      await unwrap(storage.savePayment(payment, []));
      const kept = sampleRefund(payment, { amount: { amount: "2000", currency: "RUB" } });
      const dropped = sampleRefund(payment, { amount: { amount: "3000", currency: "RUB" } });
      await unwrap(storage.reserveRefund(kept, null, []));
      await unwrap(storage.reserveRefund(dropped, null, []));
      const succeeded = succeededVersion(kept);
      const event = refundEventOf(succeeded, "refund.succeeded");
      await unwrap(storage.saveRefund(succeeded, [event]));
      expect(await unwrap(storage.findRefund(project.id, kept.id))).toEqual(succeeded);
      expect(await unwrap(storage.findPayment(project.id, payment.id))).toEqual({
        ...payment,
        amountRefunded: "2000",
        version: 2,
      });
      expect(await rowsContaining(storage, "events", event.id)).toHaveLength(1);
      // A stale or repeated write is a conflict and credits nothing again.
      expect((await unwrapErr(storage.saveRefund(succeeded, []))).code).toBe("conflict");
      expect((await unwrapErr(storage.saveRefund({ ...kept, version: 2 }, []))).code).toBe("conflict");
      const more = sampleRefund(payment, { amount: { amount: "1", currency: "RUB" } });
      expect(await unwrap(storage.reserveRefund(more, null, []))).toEqual({
        kind: "exceeds",
        refundable: "0",
      });
      const canceled: Refund = {
        ...dropped,
        status: "canceled",
        canceledAt: new Date(),
        nextCheckAt: null,
        version: 2,
      };
      await unwrap(storage.saveRefund(canceled, [refundEventOf(canceled, "refund.canceled")]));
      expect((await unwrap(storage.findPayment(project.id, payment.id)))?.amountRefunded).toBe("2000");
      expect(await unwrap(storage.reserveRefund(more, null, []))).toEqual({ kind: "reserved" });
      const notStored = sampleRefund(payment, { version: 2 });
      expect((await unwrapErr(storage.saveRefund(notStored, []))).code).toBe("conflict");
    });

    it("writes a settled payment with its refund in one step, or neither", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const pending = samplePayment(project.id, { status: "pending", succeededAt: null });
      await unwrap(storage.savePayment(pending, []));
      const settled: Payment = { ...pending, status: "succeeded", succeededAt: new Date(), version: 2 };
      const full = sampleRefund(settled, { amount: settled.amount });
      const event: DomainEvent = {
        id: randomUUID(),
        projectId: project.id,
        type: "payment.canceled",
        createdAt: new Date(),
        data: {},
      };
      // A stale payment: nothing at all is written.
      const stale = { ...settled, version: 3 };
      expect((await unwrapErr(storage.reserveRefund(full, stale, [event]))).code).toBe("conflict");
      expect(await unwrap(storage.findRefund(project.id, full.id))).toBeNull();
      // More than the payment: neither the payment nor the refund.
      const over = sampleRefund(settled, { amount: { amount: "250001", currency: settled.amount.currency } });
      expect(await unwrap(storage.reserveRefund(over, settled, [event]))).toMatchObject({ kind: "exceeds" });
      expect(await unwrap(storage.findPayment(project.id, pending.id))).toEqual(pending);
      expect(await rowsContaining(storage, "events", event.id)).toHaveLength(0);
      expect(await unwrap(storage.reserveRefund(full, settled, [event]))).toEqual({ kind: "reserved" });
      expect(await unwrap(storage.findPayment(project.id, pending.id))).toEqual(settled);
      expect(await unwrap(storage.findRefund(project.id, full.id))).toEqual(full);
      expect(await rowsContaining(storage, "events", event.id)).toHaveLength(1);
    });

    it("never lets concurrent reservations of one payment exceed it", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const payment = samplePayment(project.id, { amount: { amount: "25000", currency: "RUB" } });
      await unwrap(storage.savePayment(payment, []));
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () =>
          unwrap(
            storage.reserveRefund(
              sampleRefund(payment, { amount: { amount: "1000", currency: "RUB" } }),
              null,
              [],
            ),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.kind === "reserved")).toHaveLength(25);
      const stored = await unwrap(storage.listRefunds(project.id, { ...PAGE, paymentId: payment.id }));
      expect(stored.reduce((sum, r) => sum + BigInt(r.amount.amount), 0n)).toBe(25000n);
    });

    it("leases due pending refunds to one claim at a time, earliest first, and never final ones", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const payment = samplePayment(project.id);
      await unwrap(storage.savePayment(payment, []));
      const at = (ms: number) => new Date(Date.parse("2026-03-01T10:00:00.000Z") + ms);
      const later = sampleRefund(payment, { nextCheckAt: at(-1000) });
      const earlier = sampleRefund(payment, { nextCheckAt: at(-2000) });
      const notYet = sampleRefund(payment, { nextCheckAt: at(60_000) });
      const final = sampleRefund(payment, { nextCheckAt: at(-3000) });
      for (const refund of [later, earlier, notYet, final])
        await unwrap(storage.reserveRefund(refund, null, []));
      await unwrap(storage.saveRefund(succeededVersion(final), []));
      const claim = (now: Date, limit = 100) =>
        storage.claimRefundChecks({ now, limit, leaseExpiresAt: new Date(now.getTime() + 30_000) });
      const ours = (refunds: readonly Refund[]) =>
        refunds.filter((r) => r.projectId === project.id).map((r) => r.id);
      const first = await unwrap(claim(at(0), 1));
      expect(ours(first)).toEqual([earlier.id]);
      expect(first[0]).toEqual({ ...earlier, nextCheckAt: at(30_000) });
      expect(ours(await unwrap(claim(at(0))))).toEqual([later.id]);
      expect(ours(await unwrap(claim(at(1000))))).toEqual([]);
      expect(ours(await unwrap(claim(at(60_000)))).sort()).toEqual([earlier.id, later.id, notYet.id].sort());
      // A lease is not a change: the refund is still written over the version it was read at.
      await unwrap(storage.saveRefund(succeededVersion(earlier), []));
      expect(ours(await unwrap(claim(at(200_000))))).not.toContain(earlier.id);
    });
  });
}
