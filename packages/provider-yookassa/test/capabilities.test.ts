import { describe, expect, it } from "vitest";
import { createYooKassaProvider } from "../src/index.js";

describe("the YooKassa adapter's confirmation origins", () => {
  it("name YooMoney's checkout for YooKassa itself, and an emulator's own origin for another apiUrl", () => {
    const real = createYooKassaProvider({ shopId: "123456", secretKey: "test_key" });
    expect(real.capabilities.confirmationOrigins).toEqual(["https://yoomoney.ru"]);
    const emulated = createYooKassaProvider({
      shopId: "123456",
      secretKey: "test_key",
      apiUrl: "http://127.0.0.1:40123/v3",
    });
    expect(emulated.capabilities.confirmationOrigins).toEqual(["http://127.0.0.1:40123"]);
  });
});
