import { describe, expect, it } from "vitest";
import { startYooKassaEmulator } from "./emulator.js";

describe("the ./emulator export", () => {
  it("resolves to this folder's emulator for other packages' tests (dev-source condition)", async () => {
    const viaExport = await import("@kopek/provider-yookassa/emulator");
    expect(viaExport.startYooKassaEmulator).toBe(startYooKassaEmulator);
  });
});
