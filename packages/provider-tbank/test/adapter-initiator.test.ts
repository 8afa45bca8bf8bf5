import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signed } from "../src/token.js";
import { startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { chargeRequest, paymentRequest, providerFor } from "./harness.js";

// [T] "Передача признака инициатора операции", Init.DATA.OperationInitiatorType, Charge, errors 1125/1126:
// 0 a one-off payment (Recurrent N), 1 a payment that saves the card (Recurrent Y), R a renewal the
// merchant makes on a saved card (Recurrent N, Charge with RebillId).
let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator();
});
afterAll(() => emulator.close());

const initiatorsSince = (start: number) =>
  emulator.requests
    .slice(start)
    .filter((request) => request.method === "Init")
    .map((request) => (request.body.DATA as Record<string, unknown>).OperationInitiatorType);

describe("OperationInitiatorType on every Init", () => {
  it("sends 0 for a one-off payment by card or SBP, 1 for one that saves the card or binds SBP, R for a renewal", async () => {
    const provider = providerFor(emulator, { storedMethods: ["card", "sbp"] });
    let start = emulator.requests.length;
    (await provider.createPayment(paymentRequest()))._unsafeUnwrap();
    (await provider.createPayment(paymentRequest({ method: "sbp" })))._unsafeUnwrap();
    expect(initiatorsSince(start)).toEqual(["0", "0"]);
    start = emulator.requests.length;
    (await provider.createPayment(paymentRequest({ saveMethod: true })))._unsafeUnwrap();
    (await provider.createPayment(paymentRequest({ method: "sbp", saveMethod: true })))._unsafeUnwrap();
    expect(initiatorsSince(start)).toEqual(["1", "1"]);
    start = emulator.requests.length;
    const renewed = await provider.chargeStoredMethod(chargeRequest(emulator.books.seedSavedCard()));
    expect(renewed._unsafeUnwrap().status).toBe("succeeded");
    expect(initiatorsSince(start)).toEqual(["R"]);
  });

  it("is enforced by the emulator as [T] says: 1125 for a value not in the list, 1126 against Recurrent or RebillId", async () => {
    const send = async (method: string, fields: Record<string, unknown>) => {
      const body = signed({ TerminalKey: emulator.terminalKey, ...fields }, emulator.password);
      const response = await fetch(`${emulator.apiUrl}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    const order = () => ({ Amount: 1000, OrderId: `oit-${globalThis.crypto.randomUUID().slice(0, 8)}` });
    expect(await send("Init", { ...order(), DATA: { OperationInitiatorType: "X" } })).toMatchObject({
      ErrorCode: "1125",
    });
    // That request is outside [T] on purpose: the spec check saw it.
    expect(emulator.specViolations.splice(0)).toEqual([
      "request DATA/OperationInitiatorType must be equal to one of the allowed values",
    ]);
    expect(await send("Init", { ...order(), DATA: { OperationInitiatorType: "1" } })).toMatchObject({
      ErrorCode: "1126",
    });
    const ref = emulator.books.seedSavedCard().split(":")[1];
    const oneOff = await send("Init", { ...order(), DATA: { OperationInitiatorType: "0" } });
    expect(await send("Charge", { PaymentId: oneOff.PaymentId, RebillId: ref })).toMatchObject({
      ErrorCode: "1126",
    });
  });
});
