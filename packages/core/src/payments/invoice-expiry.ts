import { createUuidV7Generator } from "../crypto/uuid-v7.js";
import { invoiceEvent } from "../events/domain-event.js";
import { type IntervalJob, startIntervalJob } from "../jobs/interval-job.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Storage } from "../ports/storage.js";

export interface InvoiceSweeperOptions {
  readonly storage: Storage;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Invoices looked at per batch (default 100). */
  readonly batchSize?: number;
  readonly onError?: (cause: unknown) => void;
}

export interface InvoiceSweeper extends IntervalJob {
  /** Stores every lapsed invoice as `expired` with its `invoice.expired` event; returns how many. */
  runOnce(): Promise<number>;
}

/**
 * Reads already show an unpaid invoice past `expiresAt` as expired; this makes it so in storage, so
 * the merchant hears `invoice.expired` once. Version-checked: with several sweepers (or a payment
 * racing the sweep) exactly one write wins and the others skip the invoice.
 */
export function createInvoiceSweeper(options: InvoiceSweeperOptions): InvoiceSweeper {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createUuidV7Generator({ clock });
  const batchSize = options.batchSize ?? 100;
  const { storage } = options;

  async function sweep(): Promise<number> {
    let expired = 0;
    for (;;) {
      const now = clock.now();
      const lapsed = await storage.listLapsedInvoices(now, batchSize);
      if (lapsed.isErr()) throw lapsed.error;
      let written = 0;
      for (const invoice of lapsed.value) {
        const next = { ...invoice, status: "expired" as const, version: invoice.version + 1 };
        const saved = await storage.saveInvoice(next, [invoiceEvent("invoice.expired", next, now, ids)], []);
        if (saved.isOk()) written += 1;
        else if (saved.error.code !== "conflict") throw saved.error;
      }
      expired += written;
      // A full batch of conflicts would come back unchanged: stop instead of spinning.
      if (lapsed.value.length < batchSize || written === 0) return expired;
    }
  }

  const timer = startIntervalJob(sweep, (cause) => options.onError?.(cause));
  return timer;
}
