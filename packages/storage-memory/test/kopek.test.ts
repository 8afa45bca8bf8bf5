import { describeKopekContract } from "@kopek/testing";
import { sandboxContractProvider } from "../../provider-sandbox/test/contract-provider.js";
import { createMemoryStorage } from "../src/index.js";

describeKopekContract("memory storage and the sandbox", {
  createStorage: () => createMemoryStorage(),
  createProvider: sandboxContractProvider,
  declinedRef: "sandbox_decline_contract",
});
