import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_LANGUAGE, negotiateLanguage } from "./page-language.js";

describe("negotiateLanguage", () => {
  it("answers Russian to a Russian browser, whatever its region and case", () => {
    for (const header of ["ru", "ru-RU", "RU-ru", "ru-RU,ru;q=0.9", "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7"])
      expect(negotiateLanguage(header)).toBe("ru");
  });

  it("answers English to an English browser", () => {
    for (const header of ["en", "en-US", "en-GB,en;q=0.9", "en-US,en;q=0.9,ru;q=0.8"])
      expect(negotiateLanguage(header)).toBe("en");
  });

  it("follows the weights, not the order", () => {
    expect(negotiateLanguage("en-US;q=0.8,ru;q=0.9")).toBe("ru");
    expect(negotiateLanguage("ru;q=0.5, en;q=0.6")).toBe("en");
    expect(negotiateLanguage("de-DE, de;q=0.9, ru;q=0.3")).toBe("ru");
    expect(negotiateLanguage("de, en;q=0.1, ru;q=0.2")).toBe("ru");
  });

  it("between equal weights, takes the one listed first", () => {
    expect(negotiateLanguage("ru, en")).toBe("ru");
    expect(negotiateLanguage("en, ru")).toBe("en");
    expect(negotiateLanguage("uk;q=0.9, ru;q=0.8, en;q=0.8")).toBe("ru");
  });

  it("treats q=0 as a refusal and * as any language not named", () => {
    expect(negotiateLanguage("ru;q=0, en")).toBe("en");
    expect(negotiateLanguage("en;q=0, *")).toBe("ru");
    expect(negotiateLanguage("ru;q=0, *")).toBe("en");
    expect(negotiateLanguage("de, *;q=0.5, en;q=0.1")).toBe("ru");
    expect(negotiateLanguage("ru, *;q=0")).toBe("ru");
  });

  it("defaults to English when the header is absent, names neither language or refuses both", () => {
    expect(DEFAULT_PAGE_LANGUAGE).toBe("en");
    for (const header of [undefined, "", "*", "de", "zh-CN,zh;q=0.9", "ru;q=0,en;q=0", "russian", "ru_RU"])
      expect(negotiateLanguage(header)).toBe("en");
  });

  it("skips malformed ranges and weights instead of guessing", () => {
    expect(negotiateLanguage("ru;q=2, en")).toBe("en");
    expect(negotiateLanguage("ru;q=0.9999, en;q=0.5")).toBe("en");
    expect(negotiateLanguage("ru;q=abc, en;q=0.1")).toBe("en");
    expect(negotiateLanguage("en;q=0.1, ru ; q=0.5")).toBe("ru");
    expect(negotiateLanguage(",, ru-RU ;,")).toBe("ru");
  });

  it("picks the language weighed higher, whatever the order and regions", () => {
    const weight = fc.integer({ min: 1, max: 1000 }).map((n) => n / 1000);
    const region = fc.constantFrom("", "-RU", "-US", "-GB", "-BY");
    fc.assert(
      fc.property(weight, weight, region, region, fc.boolean(), (ru, en, ruRegion, enRegion, ruFirst) => {
        fc.pre(ru !== en);
        const items = [`ru${ruRegion};q=${ru}`, `en${enRegion};q=${en}`];
        const header = (ruFirst ? items : items.reverse()).join(", ");
        return negotiateLanguage(header) === (ru > en ? "ru" : "en");
      }),
    );
  });

  it("never throws, whatever the header", () => {
    fc.assert(fc.property(fc.string(), (header) => ["ru", "en"].includes(negotiateLanguage(header))));
  });
});
