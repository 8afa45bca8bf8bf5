import { createSandboxProvider } from "@kopek/provider-sandbox";
import { describeProviderContract } from "@kopek/testing";
import { afterAll } from "vitest";
import { createHttpProvider, type RunningProviderService, startProviderService } from "../src/index.js";

// The port's contract, over a real network hop: a sandbox served by the provider service.
const services: RunningProviderService[] = [];
afterAll(() => Promise.all(services.map((service) => service.close())));
const charging = await startProviderService({ provider: createSandboxProvider(), port: 0 });
const notCharging = await startProviderService({
  provider: createSandboxProvider({ storedMethodCharge: false }),
  port: 0,
});
services.push(charging, notCharging);

describeProviderContract(
  "http (sandbox behind the provider service)",
  ({ storedMethodCharge }) =>
    createHttpProvider({
      url: (storedMethodCharge ? charging : notCharging).url,
      allowLocal: true,
      ...(storedMethodCharge
        ? {}
        : {
            capabilities: {
              methods: ["card", "sbp"],
              storedMethodCharge: [],
              saveMethod: [],
              receipts: false,
              cancelPending: true,
              confirmationOrigins: [],
              currencies: ["RUB", "USD", "EUR"],
              paymentPage: "provider",
            },
          }),
    }),
  {
    declinedRef: "sandbox_decline_x",
    unavailableRef: "sandbox_unavailable_x",
    approvedRef: "pm_test_123",
    pendingRef: "sandbox_pending_x",
  },
);
