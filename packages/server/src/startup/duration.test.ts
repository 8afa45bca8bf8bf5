import { describe, expect, test } from "vitest";
import { parseDuration, parseRetrySchedule } from "./duration.js";

describe("parseDuration", () => {
  test.each([
    ["30s", 30_000],
    ["5m", 300_000],
    ["12h", 43_200_000],
    ["1d", 86_400_000],
    [" 3d ", 259_200_000],
  ])("%s", (text, ms) => expect(parseDuration(text)).toBe(ms));

  test.each(["", "0d", "1", "d", "1.5d", "1w", "-1d", "1d2h", "01d", "1D"])("%j is refused", (text) =>
    expect(parseDuration(text)).toBeNull(),
  );
});

describe("parseRetrySchedule", () => {
  test("offsets from the first decline, in order", () => {
    expect(parseRetrySchedule("1d,3d,5d")).toEqual([86_400_000, 259_200_000, 432_000_000]);
    expect(parseRetrySchedule("30m, 2h")).toEqual([1_800_000, 7_200_000]);
  });

  test.each(["", "1d,,3d", "3d,1d", "1d,1d", "1d,soon"])("%j is refused", (text) =>
    expect(parseRetrySchedule(text)).toBeNull(),
  );
});
