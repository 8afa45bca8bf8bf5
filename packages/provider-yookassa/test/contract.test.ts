import { describeProviderContract } from "@kopek/testing";
import { afterAll } from "vitest";
import { EMULATOR_SUCCESS_CARD, startYooKassaEmulator } from "./emulator.js";
import { providerFor } from "./harness.js";

// The shared provider contract against the adapter and a real HTTP emulator. The suite builds providers
// while it collects its tests, so the emulator starts first (top-level await).
// A shop YooKassa enabled saving with no payment for (API.md 11.5): the contract's methodSaves part.
const emulator = await startYooKassaEmulator({ methodSaves: true });
afterAll(() => emulator.close());

const approvedRef = emulator.books.seedSavedMethod({ id: "pm_contract_approved" });
const declinedRef = emulator.books.seedSavedMethod({ outcome: { decline: "insufficient_funds" } });
const unavailableRef = emulator.books.seedSavedMethod({ outcome: "unavailable" });
const pendingRef = emulator.books.seedSavedMethod({ outcome: "pending-until-read" });

describeProviderContract(
  "yookassa",
  ({ storedMethodCharge }) => providerFor(emulator, { storedMethods: storedMethodCharge ? ["card"] : [] }),
  {
    approvedRef,
    declinedRef,
    unavailableRef,
    pendingRef,
    methodSaves: {
      provider: () => providerFor(emulator, { saveWithoutPayment: true }),
      // The payer at the save page (`…/checkout/payment-methods/{id}`).
      decide: async (url, outcome) => {
        const id = new URL(url).pathname.split("/").at(-1) ?? "";
        emulator.methodSaves.decide(id, outcome === "saved" ? { card: EMULATOR_SUCCESS_CARD } : "decline");
      },
    },
  },
);
