import { describeProviderContract } from "@kopek/testing";
import { afterAll } from "vitest";
import { EMULATOR_SUCCESS_CARD, startTBankEmulator } from "./emulator.js";
import { providerFor } from "./harness.js";

// The shared provider contract against the adapter and a real HTTP emulator. The suite builds providers
// while it collects its tests, so the emulator starts first (top-level await).
const emulator = await startTBankEmulator();
afterAll(() => emulator.close());

const approvedRef = emulator.books.seedSavedCard({ customerKey: "contract-approved" });
const declinedRef = emulator.books.seedSavedCard({ outcome: { decline: "Недостаточно средств" } });
const unavailableRef = emulator.books.seedSavedCard({ outcome: "unavailable" });
const pendingRef = emulator.books.seedSavedCard({ outcome: "pending-until-read" });

describeProviderContract(
  "tbank",
  ({ storedMethodCharge }) => providerFor(emulator, { storedMethods: storedMethodCharge ? ["card"] : [] }),
  {
    approvedRef,
    declinedRef,
    unavailableRef,
    pendingRef,
    methodSaves: {
      provider: () => providerFor(emulator, { saveWithoutPayment: true }),
      // The payer at the binding form (`PaymentURL`, `…/addcard/{RequestKey}`).
      decide: async (url, outcome) => {
        const requestKey = new URL(url).pathname.split("/").at(-1) ?? "";
        emulator.cardBindings.decide(
          requestKey,
          outcome === "saved" ? { card: EMULATOR_SUCCESS_CARD } : { decline: "Отказ плательщика" },
        );
      },
    },
  },
);
