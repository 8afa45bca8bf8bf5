import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startYooKassaEmulator, type YooKassaEmulator } from "./emulator.js";
import { paymentRequest, providerFor, startNotificationSink } from "./harness.js";

let emulator: YooKassaEmulator;
let sink: Awaited<ReturnType<typeof startNotificationSink>>;
beforeAll(async () => {
  emulator = await startYooKassaEmulator();
  sink = await startNotificationSink();
  emulator.notifyTo(sink.url);
});
afterAll(async () => {
  await emulator.close();
  await sink.close();
});

describe("notifications", () => {
  it("names the payment of a notification the emulator sent; getPayment tells the outcome", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest();
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "5555555555554444" });
    await emulator.deliveries();
    const delivered = sink.received.at(-1);
    expect(delivered).toBeDefined();
    const subject = provider.readNotification({
      headers: delivered?.headers ?? {},
      body: delivered?.body ?? "",
    });
    // Kopek's own id comes back in the payment's metadata: a charge whose answer is not recorded yet is found by it.
    expect(subject._unsafeUnwrap()).toEqual({
      providerPaymentId: created.providerPaymentId,
      kopekPaymentId: request.paymentId,
    });
    expect(provider.notificationAnswer.status).toBe(200);
  });

  it("reads only the id of a forged body: the outcome comes from getPayment", async () => {
    const provider = providerFor(emulator);
    const created = (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    const forged = JSON.stringify({
      type: "notification",
      event: "payment.succeeded",
      object: {
        id: created.providerPaymentId,
        status: "succeeded",
        paid: true,
        amount: { value: "1.00", currency: "RUB" },
      },
    });
    expect(provider.readNotification({ headers: {}, body: forged })._unsafeUnwrap()).toEqual({
      providerPaymentId: created.providerPaymentId,
    });
    expect((await provider.getPayment(created.providerPaymentId))._unsafeUnwrap().status).toBe("pending");
  });

  it("names Kopek's payment id of a stored-method charge's notification, and none of a body without metadata", async () => {
    const provider = providerFor(emulator);
    const paymentId = globalThis.crypto.randomUUID();
    const body = (metadata: unknown) =>
      JSON.stringify({ type: "notification", event: "payment.succeeded", object: { id: "p-1", metadata } });
    expect(
      provider.readNotification({ headers: {}, body: body({ kopekPaymentId: paymentId }) })._unsafeUnwrap(),
    ).toEqual({
      providerPaymentId: "p-1",
      kopekPaymentId: paymentId,
    });
    for (const metadata of [undefined, {}, { kopekPaymentId: 42 }, { kopekPaymentId: "" }])
      expect(provider.readNotification({ headers: {}, body: body(metadata) })._unsafeUnwrap()).toEqual({
        providerPaymentId: "p-1",
      });
  });

  it("answers null for refund events and an error for what is not a YooKassa notification", () => {
    const provider = providerFor(emulator);
    const refund = JSON.stringify({ type: "notification", event: "refund.succeeded", object: { id: "r-1" } });
    expect(provider.readNotification({ headers: {}, body: refund })._unsafeUnwrap()).toBeNull();
    for (const body of [
      "not json",
      "{}",
      JSON.stringify({ type: "event", event: "payment.succeeded", object: { id: "x" } }),
    ]) {
      expect(provider.readNotification({ headers: {}, body })._unsafeUnwrapErr().code).toBe("failed");
    }
  });

  it("checks the source address when asked, from X-Real-IP or the proxy's X-Forwarded-For entry", () => {
    const provider = providerFor(emulator, { checkNotificationIp: true });
    const body = JSON.stringify({ type: "notification", event: "payment.succeeded", object: { id: "p-1" } });
    expect(provider.readNotification({ headers: { "x-real-ip": "185.71.76.5" }, body }).isOk()).toBe(true);
    expect(
      provider.readNotification({ headers: { "x-forwarded-for": "10.0.0.1, 77.75.156.11" }, body }).isOk(),
    ).toBe(true);
    expect(provider.readNotification({ headers: { "x-real-ip": "2a02:5180:0:2655::12" }, body }).isOk()).toBe(
      true,
    );
    expect(provider.readNotification({ headers: { "x-real-ip": "203.0.113.9" }, body }).isErr()).toBe(true);
    expect(
      provider.readNotification({ headers: { "x-forwarded-for": "185.71.76.5, 203.0.113.9" }, body }).isErr(),
    ).toBe(true);
    expect(provider.readNotification({ headers: {}, body }).isErr()).toBe(true);
  });
});
