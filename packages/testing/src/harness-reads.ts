import { createPaymentReconciler, type EventType, type PaymentReconciler } from "@kopek/core";
import type { KopekHarness } from "./kopek-harness.js";

/** The project's events so far, oldest first, as the outbox holds them. */
export async function events(h: KopekHarness): Promise<{ type: EventType; data: Record<string, unknown> }[]> {
  const stored = (await h.storage.listEventDeliveries(h.project.id))._unsafeUnwrap();
  return stored.map(({ event }) => ({ type: event.type, data: { ...event.data } }));
}

/** Moves the harness's clock on to `at` (an ISO timestamp) plus `ms`. */
export function advanceTo(h: KopekHarness, at: unknown, ms = 0): void {
  h.clock.advance(Date.parse(String(at)) + ms - h.clock.now().getTime());
}

/** A month after `at` (ISO), on the same day of the month (the harness's days are below 29). */
export function monthAfter(at: string): string {
  const date = new Date(at);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString();
}

/** A payment reconciler over the harness's storage, provider and clock, its amount refusals counted too. */
export function reconcilerOf(h: KopekHarness): PaymentReconciler {
  return createPaymentReconciler({
    storage: h.storage,
    providerFor: () => h.provider,
    clock: h.clock,
    onAmountMismatch: h.onAmountMismatch,
  });
}
