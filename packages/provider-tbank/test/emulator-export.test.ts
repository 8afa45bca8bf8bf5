import { describe, expect, it } from "vitest";
import { createTBankProvider } from "../src/index.js";
import { startTBankEmulator } from "./emulator.js";

describe("the ./emulator export", () => {
  it("resolves to this folder's emulator for other packages' tests (dev-source condition)", async () => {
    const viaExport = await import("@kopek/provider-tbank/emulator");
    expect(viaExport.startTBankEmulator).toBe(startTBankEmulator);
  });
});

describe("the T-Bank adapter's confirmation origins", () => {
  it("name T-Bank's payment form and NSPK's SBP links for T-Bank itself, and an emulator's own origin otherwise", () => {
    const real = createTBankProvider({ terminalKey: "TinkoffBankTest", password: "pw" });
    expect(real.capabilities.confirmationOrigins).toEqual([
      "https://securepay.tinkoff.ru",
      "https://qr.nspk.ru",
    ]);
    const emulated = createTBankProvider({
      terminalKey: "T",
      password: "pw",
      apiUrl: "http://127.0.0.1:40123/v2",
    });
    expect(emulated.capabilities.confirmationOrigins).toEqual(["http://127.0.0.1:40123"]);
    expect(real.capabilities).toMatchObject({
      methods: ["card", "sbp"],
      currencies: ["RUB"],
      cancelPending: true,
    });
  });
});
