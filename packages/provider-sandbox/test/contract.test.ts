import { describeProviderContract } from "@kopek/testing";
import { createSandboxProvider } from "../src/index.js";

describeProviderContract("sandbox", (options) => createSandboxProvider(options), {
  declinedRef: "sandbox_decline_x",
  unavailableRef: "sandbox_unavailable_x",
  approvedRef: "pm_test_123",
  pendingRef: "sandbox_pending_x",
});
