import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signed } from "../src/index.js";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { paymentRequest, providerFor } from "./harness.js";

let emulator: TBankEmulator;
let sink: { url: string; received: { body: string }[]; close: () => Promise<void> };

beforeAll(async () => {
  emulator = await startTBankEmulator();
  const provider = providerFor(emulator);
  const received: { body: string }[] = [];
  // Stands in for Kopek's notification route: reads the notification and answers what the adapter says.
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ body });
      const read = provider.readNotification({ headers: request.headers, body });
      const answer = provider.notificationAnswer;
      if (read.isErr()) response.writeHead(400).end();
      else response.writeHead(answer.status, { "content-type": answer.contentType }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/provider-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  await emulator.close();
  await sink.close();
});

describe("notifications", () => {
  it("verifies T-Bank's Token on each notification of a paid payment, names its PaymentId, and answers OK", async () => {
    const provider = providerFor(emulator);
    const created = (
      await provider.createPayment(paymentRequest({ notificationUrl: sink.url }))
    )._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
    await emulator.deliveries();
    const sent = emulator.notifications.filter((n) => String(n.body.PaymentId) === created.providerPaymentId);
    expect(sent.map((n) => n.body.Status)).toEqual(["AUTHORIZED", "CONFIRMED"]);
    expect(sent.every((n) => n.answeredOk === true)).toBe(true);
    const body = sink.received.at(-1)?.body ?? "";
    expect(provider.readNotification({ headers: {}, body })._unsafeUnwrap()).toEqual({
      providerPaymentId: created.providerPaymentId,
    });
    expect(provider.notificationAnswer).toMatchObject({ status: 200, body: "OK" });
  });

  it("carries CustomerKey and Data as [T] says, and still verifies: nested Data is outside the Token", async () => {
    const provider = providerFor(emulator);
    const request = paymentRequest({ notificationUrl: sink.url, saveMethod: true });
    const created = (await provider.createPayment(request))._unsafeUnwrap();
    emulator.books.decide(created.providerPaymentId, { card: "4300000000000777" });
    await emulator.deliveries();
    const sent = emulator.notifications.filter((n) => String(n.body.PaymentId) === created.providerPaymentId);
    const orderId = emulator.books.payments.get(created.providerPaymentId)?.OrderId;
    expect(sent.at(-1)?.body).toMatchObject({
      CustomerKey: orderId,
      Data: { KopekPaymentId: request.paymentId, OperationInitiatorType: "1" },
    });
    expect(sent.every((n) => n.answeredOk === true)).toBe(true);
  });

  it("is sent again each hour until answered OK, as [T] says", async () => {
    let answers = 0;
    const flaky = createServer((_request, response) => {
      answers += 1;
      if (answers === 1) response.writeHead(500).end("busy");
      else response.writeHead(200, { "content-type": "text/plain" }).end("OK");
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/n`;
      const created = (
        await providerFor(emulator).createPayment(paymentRequest({ notificationUrl: url }))
      )._unsafeUnwrap();
      emulator.books.expire(created.providerPaymentId);
      await emulator.deliveries();
      const sent = emulator.notifications.find((n) => String(n.body.PaymentId) === created.providerPaymentId);
      expect(sent).toMatchObject({ answeredOk: false, attempts: 1 });
      await emulator.redeliver();
      expect(sent).toMatchObject({ answeredOk: true, attempts: 2 });
      await emulator.redeliver();
      expect(sent?.attempts).toBe(2);
    } finally {
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  it("refuses a forged notification: a changed field, a wrong Token, another terminal, not JSON", () => {
    const provider = providerFor(emulator);
    const genuine = signed(
      {
        TerminalKey: emulator.terminalKey,
        OrderId: "o-1",
        Success: true,
        Status: "CONFIRMED",
        PaymentId: 42,
        ErrorCode: "0",
        Amount: 100,
      },
      emulator.password,
    );
    const read = (body: unknown) => provider.readNotification({ headers: {}, body: JSON.stringify(body) });
    expect(read(genuine)._unsafeUnwrap()).toEqual({ providerPaymentId: "42" });
    expect(read({ ...genuine, Amount: 1000 })._unsafeUnwrapErr().code).toBe("failed");
    expect(read({ ...genuine, Status: "REJECTED" }).isErr()).toBe(true);
    expect(read({ ...genuine, Token: "0".repeat(64) }).isErr()).toBe(true);
    expect(
      read(signed({ ...genuine, Token: undefined, TerminalKey: "other" }, emulator.password)).isErr(),
    ).toBe(true);
    expect(read(signed({ ...genuine, Token: undefined }, "another-password")).isErr()).toBe(true);
    expect(provider.readNotification({ headers: {}, body: "OrderId=1" }).isErr()).toBe(true);
  });

  it("answers null for a genuine notification about no payment (a card binding)", () => {
    const provider = providerFor(emulator);
    const binding = signed(
      {
        TerminalKey: emulator.terminalKey,
        CustomerKey: "c-1",
        RequestKey: "r-1",
        Success: true,
        ErrorCode: "0",
        Status: "COMPLETED",
      },
      emulator.password,
    );
    expect(
      provider.readNotification({ headers: {}, body: JSON.stringify(binding) })._unsafeUnwrap(),
    ).toBeNull();
  });
});
