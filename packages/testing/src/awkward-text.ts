import fc from "fast-check";

/**
 * Characters people really send, and characters storage cannot hold: NUL and lone surrogates (refused,
 * `invalid_character`), zero-width and full-width characters, a right-to-left override, an emoji
 * sequence, U+FFFD and a noncharacter (all stored as sent).
 */
export const AWKWARD_CHARACTERS = [
  "\u0000",
  "\ud800",
  "\udfff",
  "\ud83d", // the first half of 😀, alone
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u202e",
  "\uff11\uff12\uff13",
  "👩\u200d💻",
  "\ufffd",
  "\uffff",
] as const;

/** Ordinary text with one to three awkward characters spliced in. */
export const awkwardTextArb = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.array(fc.constantFrom(...AWKWARD_CHARACTERS), { minLength: 1, maxLength: 3 }),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, awkward, after]) => before + awkward.join("") + after);

/** Long text: 256 to 20,000 code units, past every field's limit but within a 64 KiB body. */
export const longTextArb = fc
  .tuple(fc.constantFrom("x", "я", "😀", "\u200b", "\u0000"), fc.integer({ min: 256, max: 20_000 }))
  .map(([unit, count]) => unit.repeat(Math.floor(count / unit.length)));

/** A value `depth` deep in arrays or objects around awkward text: within and past the JSON depth limit. */
export const deeplyNestedArb = fc
  .tuple(fc.integer({ min: 1, max: 40 }), awkwardTextArb, fc.boolean())
  .map(([depth, leaf, inArrays]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = inArrays ? [value] : { [leaf]: value };
    return value;
  });

/** JSON values whose strings (keys too) are often awkward. */
export const awkwardJsonArb = fc.jsonValue({
  maxDepth: 4,
  stringUnit: fc.oneof(fc.constantFrom(...AWKWARD_CHARACTERS), fc.string({ maxLength: 1 })),
});
