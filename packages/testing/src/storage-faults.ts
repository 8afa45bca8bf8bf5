import type { InspectableStorage } from "@kopek/core";
import { errAsync } from "neverthrow";

/** The writes a test can make fail: each one that stores what a provider call did. */
export type FaultyWrite =
  | "completeIdempotencyKey"
  | "saveSubscription"
  | "saveInvoice"
  | "savePayment"
  | "reserveRefund"
  | "saveRefund";

export interface StorageFaults {
  /**
   * The call of `write` after the next `skip` ones fails as a broken disk or a lost connection would
   * (`storage_failed`, nothing written); the others pass through.
   */
  failWrite(write: FaultyWrite, options?: { readonly skip?: number }): void;
  /** How many writes the faults failed so far. */
  failed(): number;
}

/**
 * The storage with writes that fail on demand: how the contract suite proves that no provider call
 * moves money without a record when the write after it fails (issue 38, API.md 10.1).
 */
export function withStorageFaults(storage: InspectableStorage): {
  readonly storage: InspectableStorage;
  readonly faults: StorageFaults;
} {
  const pending = new Map<string | symbol, number[]>();
  let failed = 0;
  const faulty = new Proxy(storage, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const skips = pending.get(name);
        if (skips !== undefined && skips.length > 0) {
          const left = skips[0] ?? 0;
          if (left === 0) {
            skips.shift();
            failed += 1;
            return errAsync({ code: "storage_failed", message: `injected: ${String(name)} failed` });
          }
          skips[0] = left - 1;
        }
        return value.apply(target, args);
      };
    },
  });
  return {
    storage: faulty,
    faults: {
      failWrite(write, { skip = 0 } = {}) {
        pending.set(write, [...(pending.get(write) ?? []), skip]);
      },
      failed: () => failed,
    },
  };
}
