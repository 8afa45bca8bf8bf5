import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOOKUP_MAX_PAGES, LOOKUP_WINDOW_MS } from "../src/payment-lookup.js";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { seedListedPayment } from "./emulator-list.js";
import { providerFor, randomKey } from "./harness.js";

// findPaymentByKey against the emulator's GET /payments: windows, pages and faults. Each test lists a
// moment of its own, long ago, so the payments other tests make never fall in its window.
let emulator: YooKassaEmulator;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
});
afterAll(() => emulator.close());

const MINUTE = 60_000;
let day = 0;
/** A moment no other test lists around. */
const freshMoment = () => {
  day += 1;
  return new Date(Date.UTC(2020, 0, 1) + day * 24 * 60 * MINUTE);
};
const lookupAt = (createdAt: Date, paymentId = globalThis.crypto.randomUUID()) => ({
  idempotencyKey: randomKey(),
  paymentId,
  createdAt,
});
const seed = (createdAt: Date, kopekPaymentId?: string, status?: string) =>
  seedListedPayment(emulator.books, {
    createdAt,
    ...(kopekPaymentId === undefined ? {} : { kopekPaymentId }),
    ...(status === undefined ? {} : { status }),
  });
const listRequestsSince = (start: number) =>
  emulator.requests
    .slice(start)
    .filter((request) => request.method === "GET" && request.path === "/v3/payments");

describe("findPaymentByKey (YooKassa)", () => {
  it("follows next_cursor to a payment on a later page", async () => {
    const at = freshMoment();
    const lookup = lookupAt(at);
    const target = seed(new Date(at.getTime() + 1_000), lookup.paymentId, "canceled");
    // 150 newer payments of other Kopek payments: the target is on the second page of 100.
    for (let i = 0; i < 150; i += 1)
      seed(new Date(at.getTime() + 2_000 + i * 1_000), globalThis.crypto.randomUUID());
    const start = emulator.requests.length;
    const found = (await providerFor(emulator).findPaymentByKey(lookup))._unsafeUnwrap();
    expect(found).toMatchObject({
      providerPaymentId: target,
      status: "canceled",
      failureCode: "payment_declined",
    });
    expect(listRequestsSince(start)).toHaveLength(2);
  });

  it("finds a payment YooKassa's clock puts a little before Kopek's record, not one outside the window", async () => {
    const provider = providerFor(emulator);
    const at = freshMoment();
    const skewed = lookupAt(at);
    const id = seed(new Date(at.getTime() - 2 * MINUTE), skewed.paymentId);
    expect((await provider.findPaymentByKey(skewed))._unsafeUnwrap()?.providerPaymentId).toBe(id);
    const tooEarly = lookupAt(at);
    seed(new Date(at.getTime() - 10 * MINUTE), tooEarly.paymentId);
    expect((await provider.findPaymentByKey(tooEarly))._unsafeUnwrap()).toBeNull();
    const tooLate = lookupAt(at);
    seed(new Date(at.getTime() + LOOKUP_WINDOW_MS + MINUTE), tooLate.paymentId);
    expect((await provider.findPaymentByKey(tooLate))._unsafeUnwrap()).toBeNull();
  });

  it("answers failed, never null, when the window holds more payments than it reads", async () => {
    const at = freshMoment();
    const lookup = lookupAt(at);
    seed(new Date(at.getTime() + 500), lookup.paymentId);
    for (let i = 0; i < LOOKUP_MAX_PAGES * 100; i += 1) seed(new Date(at.getTime() + 1_000 + i), undefined);
    const start = emulator.requests.length;
    const error = (await providerFor(emulator).findPaymentByKey(lookup))._unsafeUnwrapErr();
    expect(error.code).toBe("failed");
    expect(listRequestsSince(start)).toHaveLength(LOOKUP_MAX_PAGES);
  });

  it("answers failed when the list is not as documented", async () => {
    const at = freshMoment();
    seed(new Date(at.getTime() + 1_000), undefined, "settled-somehow");
    const error = (await providerFor(emulator).findPaymentByKey(lookupAt(at)))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "failed", message: expect.stringContaining("unexpected shape") });
  });

  it("answers unavailable when YooKassa does not answer, without the secret key", async () => {
    emulator.failNext(2, "500");
    const provider = providerFor(emulator, { maxRetries: 1 });
    const error = (await provider.findPaymentByKey(lookupAt(freshMoment())))._unsafeUnwrapErr();
    expect(error.code).toBe("unavailable");
    expect(error.message).not.toContain(emulator.secretKey);
  });
});
