import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAlternateOptions } from "./alternate-options.js";

describe("pnpm bench:alternate options", () => {
  it("takes bare and labelled checkouts in order, with the defaults", () => {
    expect(parseAlternateOptions(["bare", "main=.", "variant=/tmp/copy"])).toEqual({
      durationSeconds: 6,
      rounds: 3,
      replay: false,
      client: "wrk",
      sides: [
        { label: "bare", root: null },
        { label: "main", root: resolve(".") },
        { label: "variant", root: "/tmp/copy" },
      ],
    });
  });

  it("reads --duration, --rounds and --replay", () => {
    const options = parseAlternateOptions(["--duration", "8", "--rounds", "5", "--replay", "bare"]);
    expect(options).toMatchObject({ durationSeconds: 8, rounds: 5, replay: true });
  });

  it("reads --client", () => {
    expect(parseAlternateOptions(["--client", "closed-loop", "bare"]).client).toBe("closed-loop");
    expect(parseAlternateOptions(["--client", "wrk", "bare"]).client).toBe("wrk");
  });

  it.each([
    [[], "name at least one side"],
    [["--client", "ab", "bare"], "--client is wrk or closed-loop"],
    [["--client"], "--client is wrk or closed-loop"],
    [["--rounds", "0", "bare"], "--rounds needs a positive integer"],
    [["--duration", "1.5", "bare"], "--duration needs a positive integer"],
    [["--duration"], "--duration needs a positive integer"],
    [["--pairs", "3"], 'not an option or a side: "--pairs"'],
    [["main"], 'not an option or a side: "main"'],
    [["=/tmp/x"], 'not an option or a side: "=/tmp/x"'],
    [["main="], 'not an option or a side: "main="'],
    [["a=/x", "a=/y"], "labels must differ"],
  ])("refuses %j", (args, message) => {
    expect(() => parseAlternateOptions(args)).toThrow(message);
  });
});
