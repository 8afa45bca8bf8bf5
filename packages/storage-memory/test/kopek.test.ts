import { describeKopekContract } from "@kopek/core/testing";
import { createSandboxCheckout, createSandboxProvider, sandboxNotificationOf } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "../src/index.js";

describeKopekContract("memory storage and the sandbox", {
  createStorage: () => createMemoryStorage(),
  createProvider: (options) => {
    const sandbox = createSandboxProvider(options);
    const checkout = createSandboxCheckout(sandbox.ledger);
    return {
      ...sandbox,
      chargesMade: () => sandbox.ledger.charges().length,
      confirm: (id, decision) => void checkout.decide(id, decision),
      notificationOf: (id) => {
        const payment = checkout.find(id);
        return { headers: {}, body: payment === null ? "{}" : sandboxNotificationOf(payment).body };
      },
    };
  },
  declinedRef: "sandbox_decline_contract",
});
