import { describeProviderContract } from "@kopek/testing";
import { afterAll } from "vitest";
import { startYooKassaEmulator } from "./emulator.js";
import { providerFor } from "./harness.js";

// The shared provider contract against the adapter and a real HTTP emulator. The suite builds providers
// while it collects its tests, so the emulator starts first (top-level await).
const emulator = await startYooKassaEmulator();
afterAll(() => emulator.close());

const approvedRef = emulator.books.seedSavedMethod({ id: "pm_contract_approved" });
const declinedRef = emulator.books.seedSavedMethod({ outcome: { decline: "insufficient_funds" } });
const unavailableRef = emulator.books.seedSavedMethod({ outcome: "unavailable" });
const pendingRef = emulator.books.seedSavedMethod({ outcome: "pending-until-read" });

describeProviderContract(
  "yookassa",
  ({ storedMethodCharge }) => providerFor(emulator, { storedMethods: storedMethodCharge ? ["card"] : [] }),
  { approvedRef, declinedRef, unavailableRef, pendingRef },
);
