import type { MethodSaveRequest, MethodSaveState, MethodSaves } from "@kopek/core";
import { errAsync, okAsync } from "neverthrow";

/**
 * A provider's saving of a payer's method with no payment (API.md 11.5), as YooKassa's
 * `POST /payment_methods` and T-Bank's `AddCard` behave: a save keyed by its idempotency key, pending
 * until the payer decides at the provider's page, then saved (with a method the sandbox charges) or failed.
 * The contract suites drive Kopek's core with it on every storage; the adapters' own are proved
 * against their providers' emulators.
 */
export interface ScriptedMethodSaves extends MethodSaves {
  /** The payer's part at the provider's page. */
  decide(saveRef: string, outcome: "saved" | "failed"): void;
  /** Every save the provider started, oldest first, with the request that started it. */
  started(): readonly { readonly saveRef: string; readonly request: MethodSaveRequest }[];
  /** The next start is made at the provider, and Kopek hears nothing but an outage. */
  loseNextStart(): void;
  /** The method ref a decided save put on: what the next charges must name. */
  refOf(saveRef: string): string;
  /** How often Kopek asked how a save stands. */
  gets(): number;
}

export function scriptedMethodSaves(): ScriptedMethodSaves {
  const saves = new Map<string, { request: MethodSaveRequest; state: MethodSaveState["status"] }>();
  const byKey = new Map<string, string>();
  let loseNext = false;
  let gets = 0;
  const refOf = (saveRef: string) => `scripted-saved-${saveRef}`;
  return {
    methods: ["card"],
    start(request) {
      let saveRef = byKey.get(request.idempotencyKey);
      if (saveRef === undefined) {
        saveRef = `save-${saves.size + 1}-${request.saveId}`;
        byKey.set(request.idempotencyKey, saveRef);
        saves.set(saveRef, { request, state: "pending" });
      }
      if (loseNext) {
        loseNext = false;
        return errAsync({ code: "unavailable", message: "injected: no answer" });
      }
      return okAsync({ saveRef, confirmationUrl: `https://provider.example.test/save/${saveRef}` });
    },
    get(saveRef) {
      gets += 1;
      const save = saves.get(saveRef);
      if (save === undefined) return errAsync({ code: "failed", message: "no such save" });
      if (save.state === "saved")
        return okAsync({
          status: "saved",
          savedMethod: { ref: refOf(saveRef), methodMask: "220000******0077" },
        });
      return okAsync({ status: save.state } as MethodSaveState);
    },
    decide(saveRef, outcome) {
      const save = saves.get(saveRef);
      if (save === undefined || save.state !== "pending") throw new Error(`no pending save ${saveRef}`);
      save.state = outcome;
    },
    started: () => [...saves].map(([saveRef, { request }]) => ({ saveRef, request })),
    loseNextStart: () => {
      loseNext = true;
    },
    refOf,
    gets: () => gets,
  };
}
