import { describe, expect, it } from "vitest";
import { appAfterTraffic, STORAGES } from "./metrics-scrape.js";
import { promtool, requirePromtool } from "./promtool.js";

// Issue 42 part 2: what the real app's /metrics says after some traffic passes `promtool check
// metrics` (Prometheus's own linter: counters end in _total, base units, help on every family, no
// _total on a gauge): no problem at all, on memory and on PostgreSQL (the pool's series too).
describe.each(STORAGES)("promtool check metrics on %s storage", (kind) => {
  it("finds no problem in a scrape after traffic", async ({ skip }) => {
    requirePromtool(skip);
    const app = await appAfterTraffic(kind);
    try {
      const text = await app.scrape();
      expect(text).toMatch(/^kopek_invoices\{status="created"\} 2$/m);
      const checked = promtool(["check", "metrics"], text);
      expect({ status: checked.status, output: checked.stdout + checked.stderr }).toEqual({
        status: 0,
        output: "",
      });
    } finally {
      await app.close();
    }
  }, 60_000);
});
