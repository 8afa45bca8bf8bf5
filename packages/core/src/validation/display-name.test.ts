import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_DISPLAY_NAME_LENGTH } from "../domain/limits.js";
import { displayNameProblem } from "./display-name.js";

describe("displayNameProblem", () => {
  it("accepts names a merchant would use, in any script, up to 100 characters", () => {
    for (const name of ["Coffee <&> Co", "ООО «Ромашка»", "Кофейня №1", "☕ Café", "x".repeat(100)])
      expect(displayNameProblem(name)).toBeNull();
    // Characters, not UTF-16 units: 100 emoji are 200 units and still fit.
    expect(displayNameProblem("☕".repeat(MAX_DISPLAY_NAME_LENGTH))).toBeNull();
    expect(displayNameProblem("😀".repeat(MAX_DISPLAY_NAME_LENGTH))).toBeNull();
  });

  it("refuses empty, blank and too long names", () => {
    for (const name of ["", " ", "\u00a0 ", "x".repeat(101), "😀".repeat(101)])
      expect(displayNameProblem(name)).toBe("must be 1-100 characters, not only spaces");
  });

  it("refuses control and invisible format characters", () => {
    for (const name of ["Shop\n", "Shop\u0000", "Shop\u202Egnp.exe", "Sh\u200Bop", "Shop\u2028", "\uD800x"])
      expect(displayNameProblem(name)).toBe("must contain printable characters only");
  });

  it("refuses a card number, however it is spaced", () => {
    for (const name of ["4111 1111 1111 1111", "Shop 4111-1111-1111-1111", "4111111111111111"])
      expect(displayNameProblem(name)).toBe("must not contain a card number");
  });

  it("accepts every 1-100 character name of printable letters and spaces that has a letter", () => {
    const letter = fc.constantFrom(..."abcxyzАБВжяё€₽&<>\"' ".split(""));
    const name = fc
      .array(letter, { minLength: 1, maxLength: MAX_DISPLAY_NAME_LENGTH })
      .map((chars) => chars.join(""))
      .filter((text) => text.trim() !== "");
    fc.assert(fc.property(name, (text) => displayNameProblem(text) === null));
  });
});
