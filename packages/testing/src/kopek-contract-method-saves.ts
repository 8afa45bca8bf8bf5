import { expect, it } from "vitest";
import { events, reconcilerOf } from "./harness-reads.js";
import {
  createHarness,
  json,
  type KopekContractOptions,
  type KopekHarness,
  subscriptionBody,
} from "./kopek-harness.js";
import { type ScriptedMethodSaves, scriptedMethodSaves } from "./scripted-method-saves.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A harness whose provider saves cards with no payment, a subscription, and its link's address. */
async function withSaves(options: KopekContractOptions) {
  const saves = scriptedMethodSaves();
  const h = await createHarness(options, { methodSaves: saves });
  const created = json(await h.call("/v1/subscriptions", subscriptionBody()));
  const at = await linkOf(h, String(created.id));
  return { h, saves, created, at };
}

async function linkOf(h: KopekHarness, subscriptionId: string) {
  const link = json(await h.call(`/v1/subscriptions/${subscriptionId}/method-update`, {}));
  return { projectId: h.project.id, subscriptionId, updateId: String(link.url).split("/").at(-1) ?? "" };
}

/** The payer chose a card: the save Kopek started, and its provider ref. */
async function chooseCard(
  h: KopekHarness,
  saves: ScriptedMethodSaves,
  at: Awaited<ReturnType<typeof linkOf>>,
) {
  const started = (await h.kopek.methodUpdates.start({ ...at, method: "card" }))._unsafeUnwrap();
  if (started.kind !== "confirm_save") throw new Error(`not a save: ${started.kind}`);
  const saveRef = saves.started().find((s) => s.request.saveId === started.save.id)?.saveRef ?? "";
  return { save: started.save, url: started.url, saveRef };
}

const updatedEvents = async (h: KopekHarness) =>
  (await events(h)).filter((e) => e.type === "subscription.method_updated");
const storedOf = async (h: KopekHarness, id: string) =>
  (await h.storage.findSubscription(h.project.id, id))._unsafeUnwrap();

/**
 * API.md 11.5 where the provider saves a method with no payment (YooKassa `POST /payment_methods`,
 * T-Bank `AddCard`): no Payment, no charge, no refund — the method goes on only on the provider's word,
 * once, whether the payer comes back or not.
 */
export function registerMethodSaveTests(options: KopekContractOptions): void {
  it("saves a card with no payment: the page says so, nothing is charged, the method goes on once on the provider's word", async () => {
    const { h, saves, created, at } = await withSaves(options);
    const page = (await h.kopek.methodUpdates.page(at))._unsafeUnwrap();
    // A card is saved with no payment; SBP, which the provider does not save so, takes a check.
    expect(page.methods).toEqual([
      { method: "card", verification: null },
      { method: "sbp", verification: { amount: "100", currency: "RUB" } },
    ]);
    const { save, url, saveRef } = await chooseCard(h, saves, at);
    expect(url).toBe(`https://provider.example.test/save/${saveRef}`);
    expect(saves.started()[0]?.request).toMatchObject({
      method: "card",
      idempotencyKey: `kopek:method-save:${save.id}`,
      returnUrl: `https://pay.example.test/method/${at.projectId}/${at.subscriptionId}/${at.updateId}/return?save=${save.id}`,
    });
    const back = { ...at, saveId: save.id };
    expect((await h.kopek.methodUpdates.checkSave(back))._unsafeUnwrap().state).toBe("pending");
    saves.decide(saveRef, "saved");
    const checked = (await h.kopek.methodUpdates.checkSave(back))._unsafeUnwrap();
    expect(checked).toMatchObject({ state: "saved", page: { state: "completed" } });
    expect((await h.kopek.methodUpdates.checkSave(back))._unsafeUnwrap().state).toBe("saved");
    const now = json(await h.get(`/v1/subscriptions/${created.id}`));
    expect(now.methodMask).toBe("220000******0077");
    const stored = await storedOf(h, String(created.id));
    expect(stored?.providerMethodRef).toBe(saves.refOf(saveRef));
    expect(stored?.methodUpdate?.saves).toEqual([{ ...save, state: "saved", ref: null }]);
    expect(await updatedEvents(h)).toHaveLength(1);
    const payments = json(await h.get("/v1/payments", { subscriptionId: String(created.id) })).data;
    expect((payments as { kind: string }[]).map((p) => p.kind)).toEqual(["cycle"]);
    expect([h.chargeCalls(), h.refundCalls()]).toEqual([1, 0]);
  });

  it("a declined save changes nothing and the payer may choose again (each choice is an attempt)", async () => {
    const { h, saves, created, at } = await withSaves(options);
    const first = await chooseCard(h, saves, at);
    saves.decide(first.saveRef, "failed");
    const back = (await h.kopek.methodUpdates.checkSave({ ...at, saveId: first.save.id }))._unsafeUnwrap();
    expect(back).toMatchObject({ state: "failed", page: { state: "open" } });
    expect(json(await h.get(`/v1/subscriptions/${created.id}`)).methodMask).toBe(created.methodMask);
    expect(await updatedEvents(h)).toHaveLength(0);
    const second = await chooseCard(h, saves, at);
    expect(second.saveRef).not.toBe(first.saveRef);
    expect((await storedOf(h, String(created.id)))?.methodUpdate?.attempts).toBe(2);
  });

  it("a payer who never comes back loses nothing: reconciliation asks the provider and puts the method on", async () => {
    const { h, saves, created, at } = await withSaves(options);
    const { saveRef } = await chooseCard(h, saves, at);
    saves.decide(saveRef, "saved");
    await reconcilerOf(h).runOnce();
    expect(saves.gets()).toBe(0); // Younger than half a minute: left to the payer's return.
    h.clock.advance(MINUTE_MS);
    expect(await reconcilerOf(h).runOnce()).toMatchObject({ claimed: 1, settled: 1 });
    expect((await storedOf(h, String(created.id)))?.providerMethodRef).toBe(saves.refOf(saveRef));
    expect(await reconcilerOf(h).runOnce()).toMatchObject({ claimed: 0 });
    expect(await updatedEvents(h)).toHaveLength(1);
  });

  it("a save whose start got no answer ends failed: nothing goes on, the page takes another choice", async () => {
    const { h, saves, created, at } = await withSaves(options);
    saves.loseNextStart();
    const started = await h.kopek.methodUpdates.start({ ...at, method: "card" });
    expect(started._unsafeUnwrapErr().code).toBe("provider_unavailable");
    const [save] = (await storedOf(h, String(created.id)))?.methodUpdate?.saves ?? [];
    expect(save).toMatchObject({ state: "failed", ref: null });
    expect((await h.kopek.methodUpdates.page(at))._unsafeUnwrap().state).toBe("open");
    h.clock.advance(DAY_MS / 2);
    await reconcilerOf(h).runOnce();
    expect(saves.gets()).toBe(0);
    expect(json(await h.get(`/v1/subscriptions/${created.id}`)).methodMask).toBe(created.methodMask);
  });

  it("a save still pending when its link expires ends failed, and is asked about no more", async () => {
    const { h, saves, created, at } = await withSaves(options);
    const { save } = await chooseCard(h, saves, at);
    h.clock.advance(DAY_MS + MINUTE_MS);
    expect(await reconcilerOf(h).runOnce()).toMatchObject({ claimed: 1, settled: 1 });
    const stored = await storedOf(h, String(created.id));
    expect(stored?.methodUpdate?.saves).toEqual([{ ...save, state: "failed", ref: null }]);
    const asked = saves.gets();
    await reconcilerOf(h).runOnce();
    expect(saves.gets()).toBe(asked);
  });

  it("a newer link keeps a pending save: the payer who finishes it still gets the method on", async () => {
    const { h, saves, created, at } = await withSaves(options);
    const { save, saveRef } = await chooseCard(h, saves, at);
    const newer = await linkOf(h, String(created.id));
    saves.decide(saveRef, "saved");
    const back = (await h.kopek.methodUpdates.checkSave({ ...at, saveId: save.id }))._unsafeUnwrap();
    expect(back.state).toBe("saved");
    const stored = await storedOf(h, String(created.id));
    expect(stored?.providerMethodRef).toBe(saves.refOf(saveRef));
    expect(stored?.methodUpdate).toMatchObject({ id: newer.updateId, completedBy: save.id });
  });

  it("a past-due subscription's overdue cycle is charged from the saved card on the worker's next tick", async () => {
    const { h, saves, created } = await withSaves(options);
    h.clock.advance(31 * DAY_MS);
    h.injectChargeFaults("decline");
    expect(await h.worker().runOnce()).toMatchObject({ declined: 1 });
    expect(json(await h.get(`/v1/subscriptions/${created.id}`))).toMatchObject({ status: "past_due" });
    const at = await linkOf(h, String(created.id));
    const { save, saveRef } = await chooseCard(h, saves, at);
    saves.decide(saveRef, "saved");
    expect((await h.kopek.methodUpdates.checkSave({ ...at, saveId: save.id }))._unsafeUnwrap().state).toBe(
      "saved",
    );
    h.clock.advance(5000);
    expect(await h.worker().runOnce()).toMatchObject({ charged: 1 });
    expect(json(await h.get(`/v1/subscriptions/${created.id}`))).toMatchObject({ status: "active" });
    expect(h.chargeCalls()).toBe(3);
  });

  it("a save finished after the subscription was canceled only ends: nothing goes on", async () => {
    const { h, saves, created, at } = await withSaves(options);
    const { save, saveRef } = await chooseCard(h, saves, at);
    expect((await h.call(`/v1/subscriptions/${created.id}/cancel`, {})).status).toBe(200);
    saves.decide(saveRef, "saved");
    const back = (await h.kopek.methodUpdates.checkSave({ ...at, saveId: save.id }))._unsafeUnwrap();
    expect(back.page.state).toBe("closed");
    const stored = await storedOf(h, String(created.id));
    expect(stored?.providerMethodRef).not.toBe(saves.refOf(saveRef));
    expect(stored?.methodUpdate?.saves[0]).toMatchObject({ state: "saved", ref: null });
    expect(await updatedEvents(h)).toHaveLength(0);
  });
}
