import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { innProblem, sellerFieldProblem } from "./seller.js";

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n });
const check = (d: number[], w: number[]) => (w.reduce((s, x, i) => s + x * (d[i] ?? 0), 0) % 11) % 10;

describe("ИНН", () => {
  it("takes published ИНН of organisations and persons", () => {
    // Sberbank (7707083893), a person's from the Federal Tax Service's examples (500100732259).
    for (const inn of ["7707083893", "500100732259"]) expect(innProblem(inn)).toBeNull();
  });

  it("takes every 10 or 12 digits whose check digits are right, and refuses each wrong one", () => {
    fc.assert(
      fc.property(digits(9), fc.integer({ min: 1, max: 9 }), (d, shift) => {
        const good = [...d, check(d, [2, 4, 10, 3, 5, 9, 4, 6, 8])];
        expect(innProblem(good.join(""))).toBeNull();
        const bad = [...d, ((good[9] ?? 0) + shift) % 10];
        expect(innProblem(bad.join(""))).toBe("has a wrong check digit: not an ИНН");
      }),
    );
    fc.assert(
      fc.property(digits(10), (d) => {
        const d11 = [...d, check(d, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8])];
        const good = [...d11, check(d11, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8])];
        expect(innProblem(good.join(""))).toBeNull();
      }),
    );
  });

  it("refuses other lengths and anything but digits", () => {
    for (const inn of [
      "",
      "770708389",
      "77070838931",
      "7707083893 ",
      "７７０７０８３８９３",
      "1234567890123",
    ])
      expect(innProblem(inn)).toBe("must be 10 digits (an organisation) or 12 (a person)");
  });
});

describe("the other seller fields", () => {
  it("names what is wrong", () => {
    expect(sellerFieldProblem("legalName", "ООО «Зерно»")).toBeNull();
    expect(sellerFieldProblem("legalName", " ")).toBe("must be 1-200 characters, not only spaces");
    expect(sellerFieldProblem("legalName", "ООО\u202EЗерно")).toBe("must contain printable characters only");
    expect(sellerFieldProblem("legalName", "4111 1111 1111 1111")).toBe("must not contain a card number");
    expect(sellerFieldProblem("email", "shop@zerno.ru")).toBeNull();
    expect(sellerFieldProblem("email", "shop at zerno")).toBe("must be an e-mail address");
    expect(sellerFieldProblem("phone", "+79991234567")).toBeNull();
    expect(sellerFieldProblem("phone", "8 999 123-45-67")).toBe(
      "must be + and 10 to 15 digits, as +79991234567",
    );
    expect(sellerFieldProblem("offerUrl", "https://zerno.ru/offer")).toBeNull();
    expect(sellerFieldProblem("privacyUrl", "http://zerno.ru/privacy")).toBe("must be an https:// URL");
    expect(sellerFieldProblem("privacyUrl", "javascript:alert(1)")).toBe("must be an https:// URL");
  });
});
