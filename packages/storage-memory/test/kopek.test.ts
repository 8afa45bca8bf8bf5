import { describeKopekContract } from "@kopek/core/testing";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "../src/index.js";

describeKopekContract("memory storage and the sandbox", {
  createStorage: () => createMemoryStorage(),
  createProvider: (options) => {
    const sandbox = createSandboxProvider(options);
    return { ...sandbox, chargesMade: () => sandbox.ledger.charges().length };
  },
  declinedRef: "sandbox_decline_contract",
});
