import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { PaymentRequest } from "@kopek/core";
import { createYooKassaProvider, type YooKassaProviderOptions } from "../src/index.js";
import type { YooKassaEmulator } from "./emulator.js";

/** The adapter pointed at `emulator`, with fast timeouts so fault tests stay quick. */
export function providerFor(emulator: YooKassaEmulator, overrides: Partial<YooKassaProviderOptions> = {}) {
  return createYooKassaProvider({
    shopId: emulator.shopId,
    secretKey: emulator.secretKey,
    apiUrl: emulator.apiUrl,
    // The emulator listens on 127.0.0.1: the development opt-in of @kopek/outbound.
    allowLocal: true,
    timeoutMs: 1_000,
    ...overrides,
  });
}

export function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    paymentId: globalThis.crypto.randomUUID(),
    money: { amount: "149900", currency: "RUB" },
    method: "card",
    description: "Kopek test payment",
    receipt: null,
    returnUrl: "https://pay.kopek.test/pay/return",
    notificationUrl: "https://pay.kopek.test/provider-events/p/yookassa",
    idempotencyKey: `test-${globalThis.crypto.randomUUID()}`,
    saveMethod: false,
    ...overrides,
  };
}

export const randomKey = () => `test-${globalThis.crypto.randomUUID()}`;

/** A local endpoint that records what is POSTed to it, standing in for Kopek's notification route. */
export async function startNotificationSink() {
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/provider-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
