import type { MethodSaveRequest, MethodSaves, PaymentProvider } from "@kopek/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmationUrlOf } from "../src/card-binding.js";
import { signed } from "../src/index.js";
import { cardBindingRefOf, parseCardBindingRef } from "../src/stored-ref.js";
import { EMULATOR_SUCCESS_CARD, startTBankEmulator, type TBankEmulator } from "./emulator.js";
import { chargeRequest, providerFor, randomKey } from "./harness.js";

// Saving a card with no payment (AddCustomer + AddCard + GetAddCardState, README "A payer's new method"),
// over HTTP against the emulator; test/spec-setup.ts holds every request, answer and notification to [T].

const ADD_CARD_URLS = {
  success: "https://pay.kopek.test/method/return?added=1",
  fail: "https://pay.kopek.test/method/return?added=0",
};
const MASK = "4300 00** **** 0777";

let emulator: TBankEmulator;
beforeAll(async () => {
  emulator = await startTBankEmulator({ addCardUrls: ADD_CARD_URLS });
});
afterAll(() => emulator.close());

const requestsOf = (method: string, from = 0) =>
  emulator.requests.slice(from).filter((request) => request.method === method);
const saveRequest = (overrides: Partial<MethodSaveRequest> = {}): MethodSaveRequest => ({
  saveId: globalThis.crypto.randomUUID(),
  method: "card",
  returnUrl: "https://pay.kopek.test/method/return",
  idempotencyKey: randomKey(),
  ...overrides,
});
const savesOf = (provider: PaymentProvider): MethodSaves => {
  if (provider.methodSaves === undefined) throw new Error("no methodSaves");
  return provider.methodSaves;
};
const bindingProvider = (on: TBankEmulator = emulator) =>
  savesOf(providerFor(on, { saveWithoutPayment: true }));
/** The payer submits the binding form: `save` with a card number, or `decline`. */
const submit = (url: string, form: Record<string, string>) =>
  fetch(url, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
/** A request straight to the emulator's API, signed as T-Bank wants (for what the adapter never sends). */
const callApi = async (on: TBankEmulator, method: string, body: Record<string, unknown>) =>
  (await fetch(`${on.apiUrl}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(signed({ TerminalKey: on.terminalKey, ...body }, on.password)),
  }).then((answer) => answer.json())) as Record<string, unknown>;

describe("saving a card without a payment (methodSaves)", () => {
  it("binds the card on T-Bank's form, reads it saved with its mask, and charges it later with Charge", async () => {
    const provider = providerFor(emulator, { saveWithoutPayment: true });
    const saves = savesOf(provider);
    expect(saves.methods).toEqual(["card"]);
    const start = emulator.requests.length;
    const started = (await saves.start(saveRequest()))._unsafeUnwrap();
    const binding = parseCardBindingRef(started.saveRef);
    const customerKey = binding?.customerKey ?? "";
    const requestKey = binding?.requestKey ?? "";
    expect(customerKey).toMatch(/^c1-[0-9a-f]{33}$/);
    expect(started).toEqual({
      saveRef: `a1:${customerKey}:${requestKey}`,
      confirmationUrl: `${emulator.url}/addcard/${requestKey}`,
    });
    expect(emulator.requests.slice(start).map((request) => request.method)).toEqual([
      "AddCustomer",
      "AddCard",
    ]);
    expect(requestsOf("AddCustomer", start)[0]?.body).toMatchObject({ CustomerKey: customerKey });
    expect(requestsOf("AddCard", start)[0]?.body).toMatchObject({
      CustomerKey: customerKey,
      CheckType: "3DSHOLD",
    });

    // The payer opens the form: TEST-marked, the card prefilled; nothing is saved yet.
    expect((await saves.get(started.saveRef))._unsafeUnwrap()).toEqual({ status: "pending" });
    const page = await fetch(started.confirmationUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("TEST");
    expect(html).toContain(`name="card" value="${EMULATOR_SUCCESS_CARD}"`);
    expect(html).toContain(">Save card</button>");
    expect(html).toContain(">Decline</button>");
    expect(emulator.cardBindings.bindings.get(requestKey)?.Status).toBe("FORM_SHOWED");
    expect((await saves.get(started.saveRef))._unsafeUnwrap()).toEqual({ status: "pending" });

    // Saved: T-Bank sends the payer to the terminal's Success Add Card URL, not the request's returnUrl.
    const saved = await submit(started.confirmationUrl, { outcome: "save", card: EMULATOR_SUCCESS_CARD });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(ADD_CARD_URLS.success);
    const rebillId = emulator.cardBindings.bindings.get(requestKey)?.RebillId ?? "";
    expect(rebillId).toMatch(/^[0-9]+$/);
    const state = (await saves.get(started.saveRef))._unsafeUnwrap();
    const ref = `${customerKey}:${rebillId}`;
    expect(state).toEqual({ status: "saved", savedMethod: { ref, methodMask: MASK } });
    // The mask is from GetCardList (the verified list), never from the notification.
    expect(requestsOf("GetCardList", start).at(-1)?.body).toMatchObject({ CustomerKey: customerKey });

    // The ref is what describeStoredMethod and chargeStoredMethod take for any saved card.
    expect((await provider.describeStoredMethod({ ref, method: "card" }))._unsafeUnwrap()).toEqual({
      kind: "card",
      first6: "430000",
      last4: "0777",
      length: 16,
    });
    const charged = (await provider.chargeStoredMethod(chargeRequest(ref)))._unsafeUnwrap();
    expect(charged).toMatchObject({ status: "succeeded", money: { amount: "99000", currency: "RUB" } });
    expect(emulator.books.payments.get(charged.providerPaymentId)).toMatchObject({
      Status: "CONFIRMED",
      Amount: 99000,
      rebilled: true,
      rebillId,
    });
    expect(requestsOf("Charge", start).map((request) => String(request.body.RebillId))).toEqual([rebillId]);
  });

  it("reads a declined binding failed: the Decline button, or a card the issuer declines", async () => {
    const saves = bindingProvider();
    const declined = (await saves.start(saveRequest()))._unsafeUnwrap();
    const answer = await submit(declined.confirmationUrl, { outcome: "decline" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(ADD_CARD_URLS.fail);
    expect((await saves.get(declined.saveRef))._unsafeUnwrap()).toEqual({ status: "failed" });

    const refused = (await saves.start(saveRequest()))._unsafeUnwrap();
    const requestKey = parseCardBindingRef(refused.saveRef)?.requestKey ?? "";
    expect(emulator.cardBindings.decide(requestKey, { card: "4000000000000101" })?.Status).toBe("REJECTED");
    expect((await saves.get(refused.saveRef))._unsafeUnwrap()).toEqual({ status: "failed" });
    // Decided once: the form no longer takes a card.
    expect(emulator.cardBindings.decide(requestKey, { card: EMULATOR_SUCCESS_CARD })).toBeNull();
    expect(await (await fetch(refused.confirmationUrl)).text()).toContain("This card binding is REJECTED");
  });

  it("starts again for a retried save: the same customer, registered once, and another binding", async () => {
    for (const repeatedCustomer of ["ok", "refused"] as const) {
      const own = await startTBankEmulator({ repeatedCustomer });
      try {
        const saves = bindingProvider(own);
        const request = saveRequest();
        const first = (await saves.start(request))._unsafeUnwrap();
        // Another process retries the same save: AddCustomer of a customer T-Bank knows is no failure.
        const again = (await bindingProvider(own).start(request))._unsafeUnwrap();
        const [a, b] = [first, again].map((started) => parseCardBindingRef(started.saveRef));
        expect(b?.customerKey).toBe(a?.customerKey);
        expect(b?.requestKey).not.toBe(a?.requestKey);
        expect(own.requests.map((r) => r.method)).toEqual(
          repeatedCustomer === "ok"
            ? ["AddCustomer", "AddCard", "AddCustomer", "AddCard"]
            : ["AddCustomer", "AddCard", "AddCustomer", "GetCustomer", "AddCard"],
        );
        await submit(again.confirmationUrl, { outcome: "save", card: EMULATOR_SUCCESS_CARD });
        expect((await saves.get(again.saveRef))._unsafeUnwrap().status).toBe("saved");
        expect((await saves.get(first.saveRef))._unsafeUnwrap().status).toBe("pending");
      } finally {
        await own.close();
      }
    }
  });

  it("answers an error when AddCard's answer is lost (never sent twice), and a later start works", async () => {
    const saves = bindingProvider();
    const request = saveRequest();
    for (const fault of ["500", "timeout", "garbled"] as const) {
      const start = emulator.requests.length;
      emulator.failNext(1, fault, { afterProcessing: true, method: "AddCard" });
      const lost = (await saves.start(request))._unsafeUnwrapErr();
      expect(lost.code).toBe("unavailable");
      expect(requestsOf("AddCard", start)).toHaveLength(1);
    }
    const later = (await saves.start(request))._unsafeUnwrap();
    await submit(later.confirmationUrl, { outcome: "save", card: EMULATOR_SUCCESS_CARD });
    expect((await saves.get(later.saveRef))._unsafeUnwrap().status).toBe("saved");
  });

  it("retries an AddCustomer that failed (it is safe to repeat), and reports an outage of GetAddCardState", async () => {
    const saves = bindingProvider();
    emulator.failNext(1, "500", { afterProcessing: true, method: "AddCustomer" });
    const started = (await saves.start(saveRequest()))._unsafeUnwrap();
    emulator.failNext(4, "500", { method: "GetAddCardState" });
    expect((await saves.get(started.saveRef))._unsafeUnwrapErr().code).toBe("unavailable");
    expect((await saves.get(started.saveRef))._unsafeUnwrap()).toEqual({ status: "pending" });
  });

  it("refuses a saveRef it did not make, a binding T-Bank does not know, and a method other than a card", async () => {
    const saves = bindingProvider();
    for (const bad of ["", "c1-abc:42", "q1:ed989549-d3be-4758-95c7-22647e03f9ec:A1"])
      expect((await saves.get(bad))._unsafeUnwrapErr().code).toBe("failed");
    const unknown = cardBindingRefOf("c1-abc", globalThis.crypto.randomUUID());
    expect((await saves.get(unknown))._unsafeUnwrapErr().message).toContain("ErrorCode 502");
    expect((await saves.start(saveRequest({ method: "sbp" })))._unsafeUnwrapErr().code).toBe("failed");
  });

  it("has no methodSaves unless saveWithoutPayment is on and cards are stored", () => {
    expect(providerFor(emulator).methodSaves).toBeUndefined();
    expect(providerFor(emulator, { saveWithoutPayment: false }).methodSaves).toBeUndefined();
    expect(
      providerFor(emulator, { saveWithoutPayment: true, storedMethods: ["sbp"] }).methodSaves,
    ).toBeUndefined();
    expect(
      providerFor(emulator, { saveWithoutPayment: true, storedMethods: ["sbp", "card"] }).methodSaves
        ?.methods,
    ).toEqual(["card"]);
  });
});

describe("CheckType: a RebillId only after a check", () => {
  it("lists a card bound with NO without a RebillId (never saved), and one bound with a check with it", async () => {
    const saves = bindingProvider();
    for (const checkType of ["NO", "HOLD", "3DS", "3DSHOLD"]) {
      const customerKey = `c1-${checkType.toLowerCase()}-${Date.now()}`;
      expect((await callApi(emulator, "AddCustomer", { CustomerKey: customerKey })).Success).toBe(true);
      const added = await callApi(emulator, "AddCard", { CustomerKey: customerKey, CheckType: checkType });
      const requestKey = String(added.RequestKey);
      emulator.cardBindings.decide(requestKey, { card: EMULATOR_SUCCESS_CARD });
      const cards = (await callApi(emulator, "GetCardList", { CustomerKey: customerKey })) as unknown as {
        RebillId?: string;
      }[];
      expect(cards).toHaveLength(1);
      const state = (await saves.get(cardBindingRefOf(customerKey, requestKey)))._unsafeUnwrap();
      if (checkType === "NO") {
        // COMPLETED, but nothing Kopek could charge later: not saved.
        expect(cards[0]?.RebillId).toBeUndefined();
        expect(state).toEqual({ status: "failed" });
      } else {
        expect(cards[0]?.RebillId).toMatch(/^[0-9]+$/);
        expect(state).toMatchObject({ status: "saved", savedMethod: { methodMask: MASK } });
      }
    }
  });

  it("refuses AddCard for a customer never added (503) and a CheckType off [T]'s list (1)", async () => {
    const unknown = await callApi(emulator, "AddCard", { CustomerKey: "c1-nobody" });
    expect(unknown).toMatchObject({ Success: false, ErrorCode: "503" });
    await callApi(emulator, "AddCustomer", { CustomerKey: "c1-somebody" });
    const off = await callApi(emulator, "AddCard", { CustomerKey: "c1-somebody", CheckType: "3DS_HOLD" });
    expect(off).toMatchObject({ Success: false, ErrorCode: "1" });
    // The request is off [T]'s list on purpose: the spec check saw it too.
    expect(emulator.specViolations.splice(0)).toEqual([
      "request AddCard/CheckType must be equal to one of the allowed values",
    ]);
  });
});

describe("the card binding's notification (NotificationAddCard)", () => {
  it("verifies its Token and answers null: Kopek reads the save with GetAddCardState; a forged one is an error", async () => {
    const provider = providerFor(emulator, { saveWithoutPayment: true });
    const saves = savesOf(provider);
    emulator.notifyTo("http://127.0.0.1:9/nowhere");
    try {
      for (const outcome of ["save", "decline"]) {
        const started = (await saves.start(saveRequest()))._unsafeUnwrap();
        await submit(started.confirmationUrl, { outcome, card: EMULATOR_SUCCESS_CARD });
        await emulator.deliveries();
        const sent = emulator.notifications.at(-1)?.body ?? {};
        expect(sent).toMatchObject({
          RequestKey: parseCardBindingRef(started.saveRef)?.requestKey,
          CustomerKey: parseCardBindingRef(started.saveRef)?.customerKey,
          Status: outcome === "save" ? "COMPLETED" : "REJECTED",
        });
        expect(
          provider.readNotification({ headers: {}, body: JSON.stringify(sent) })._unsafeUnwrap(),
        ).toBeNull();
        const forged = { ...sent, Status: "COMPLETED", RebillId: "1234567890" };
        expect(provider.readNotification({ headers: {}, body: JSON.stringify(forged) }).isErr()).toBe(true);
      }
    } finally {
      emulator.notifyTo(null);
    }
  });
});

describe("AddCard's PaymentURL ([T]: typed a URI, its example a bare UUID)", () => {
  it("is used when it is an absolute http(s) link, and refused otherwise", () => {
    const link = "https://securepay.tinkoff.ru/e2c/AddCard/ed989549-d3be-4758-95c7-22647e03f9ec";
    expect(confirmationUrlOf(link)).toBe(link);
    for (const bad of ["82a31a62-6067-4ad8-b379-04bf13e37642d", "/AddCard/abc", "javascript:alert(1)", ""])
      expect(confirmationUrlOf(bad), bad).toBeNull();
  });
});
