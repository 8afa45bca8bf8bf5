import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OffHeapRows } from "./off-heap-rows.js";

type Op =
  | { readonly kind: "set"; readonly key: string; readonly row: string }
  | { readonly kind: "delete"; readonly key: string }
  | { readonly kind: "deleteOldest"; readonly limit: number };

// Few distinct keys, so sets replace and deletes hit; any text, lone surrogates and long rows included.
const key = fc.oneof(
  fc.constantFrom("a", "b", "key-1", "ключ", "\ud800", ""),
  fc.string({ maxLength: 40, unit: "binary" }),
);
const row = fc.oneof(
  fc.string({ maxLength: 200, unit: "binary" }),
  fc.string({ maxLength: 20, unit: "binary" }).map((text) => `0${text}`),
  fc.string({ maxLength: 60, unit: "grapheme" }),
  fc.constantFrom("", '0\n1795707557796\n1\n"p"\n[]', "x".repeat(3000)),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("set" as const), key, row }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), key }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deleteOldest" as const),
      limit: fc.integer({ min: 0, max: 5 }),
    }),
  },
);

// `deleteOldest`'s test in these properties: the row starts with "0" (its first UTF-8 byte).
const startsWithZero = (bytes: Uint8Array, start: number, end: number) =>
  end > start && bytes[start] === 0x30;

function sorted(entries: Iterable<[string, string]>): [string, string][] {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe("OffHeapRows", () => {
  it("behaves as a Map of strings in write order for any sequence of sets and deletes", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const rows = new OffHeapRows(16);
        // A Map in write order: a set moves its key to the end, as a write appends to the log.
        const model = new Map<string, string>();
        for (const step of ops) {
          if (step.kind === "set") {
            rows.set(step.key, step.row);
            model.delete(step.key);
            model.set(step.key, step.row);
          } else if (step.kind === "delete") {
            expect(rows.delete(step.key)).toBe(model.delete(step.key));
          } else {
            let expected = 0;
            for (const [k, v] of model) {
              if (expected >= step.limit || !v.startsWith("0")) break;
              model.delete(k);
              expected += 1;
            }
            expect(rows.deleteOldest(startsWithZero, step.limit)).toBe(expected);
            continue;
          }
          expect(rows.get(step.key)).toBe(model.get(step.key));
          expect(rows.has(step.key)).toBe(model.has(step.key));
        }
        expect(rows.size).toBe(model.size);
        for (const [k, v] of model) expect(rows.get(k)).toBe(v);
        expect([...rows.entries()]).toEqual([...model.entries()]);
        expect([...rows.values()].sort()).toEqual([...model.values()].sort());
      }),
      { numRuns: 300 },
    );
  });

  it("answers for every key after every write while its index grows and its entries move", () => {
    const step = fc.record({ set: fc.boolean(), key: fc.integer({ min: 0, max: 149 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 50, maxLength: 300 }), (steps) => {
        const rows = new OffHeapRows(16);
        const model = new Map<string, string>();
        const wrong: string[] = [];
        steps.forEach(({ set, key }, i) => {
          if (set) {
            rows.set(`k${key}`, `row ${i}`);
            model.set(`k${key}`, `row ${i}`);
          } else if (rows.delete(`k${key}`) !== model.delete(`k${key}`)) wrong.push(`delete k${key} at ${i}`);
          for (let k = 0; k < 150; k++)
            if (rows.get(`k${k}`) !== model.get(`k${k}`) || rows.has(`k${k}`) !== model.has(`k${k}`))
              wrong.push(`k${k} after write ${i}`);
          if (rows.size !== model.size) wrong.push(`size after write ${i}`);
        });
        expect(wrong).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it("keeps many keys through index growths and finds none it was not given", () => {
    const rows = new OffHeapRows();
    for (let i = 0; i < 50_000; i++) rows.set(`project\n${i}`, `row ${i} ${"é".repeat(i % 7)}`);
    for (let i = 0; i < 50_000; i += 2) expect(rows.delete(`project\n${i}`)).toBe(true);
    expect(rows.size).toBe(25_000);
    for (let i = 0; i < 50_000; i++)
      expect(rows.get(`project\n${i}`)).toBe(i % 2 === 0 ? undefined : `row ${i} ${"é".repeat(i % 7)}`);
    expect(rows.get("project\n50000")).toBeUndefined();
  });

  it("drops a chunk once nothing written into it is live, and only then", () => {
    const rows = new OffHeapRows();
    const big = "r".repeat(100_000);
    // ~10 rows per 1 MiB chunk: 60 rows fill ~6 chunks.
    for (let i = 0; i < 60; i++) rows.set(`k${i}`, big);
    const held = rows.chunksHeld;
    expect(held).toBeGreaterThanOrEqual(6);
    // Replacing every row writes them again at the end: the old chunks empty and go.
    for (let i = 0; i < 60; i++) rows.set(`k${i}`, `${big}!`);
    expect(rows.chunksHeld).toBeLessThanOrEqual(held + 1);
    for (let i = 0; i < 59; i++) rows.delete(`k${i}`);
    // The chunk holding the last live row stays, and so does the one being written.
    expect(rows.chunksHeld).toBeLessThanOrEqual(2);
    expect(rows.get("k59")).toBe(`${big}!`);
  });

  it("keeps its rows through new indexes of the same size (churn over a few keys)", () => {
    const rows = new OffHeapRows(16);
    for (let i = 0; i < 100_000; i++) {
      rows.set(`live-${i % 100}`, `row ${i}`);
      rows.set(`gone-${i}`, "x");
      rows.delete(`gone-${i}`);
    }
    expect(rows.size).toBe(100);
    for (let k = 0; k < 100; k++) expect(rows.get(`live-${k}`)).toBe(`row ${99_900 + k}`);
    expect(rows.has("gone-99999")).toBe(false);
  });

  it("holds a bounded number of chunks however much is written, when old rows go", () => {
    const rows = new OffHeapRows();
    const row = `0${"r".repeat(10_000)}`;
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      rows.set(`k${i}`, row);
      // Rows done with oldest first, as expired records are: at most ~1,000 live (~10 MB).
      if (i >= 1000) rows.deleteOldest(startsWithZero, 1);
      most = Math.max(most, rows.chunksHeld);
    }
    expect(rows.size).toBe(1000);
    expect(most).toBeLessThanOrEqual(12);
    expect(rows.get("k19999")).toBe(row);
    expect(rows.get("k18999")).toBeUndefined();
  });

  it("gives a row larger than a chunk a chunk of its own", () => {
    const rows = new OffHeapRows();
    const huge = "ж".repeat(1_000_000);
    rows.set("small", "s");
    rows.set("huge", huge);
    rows.set("after", "a");
    expect([rows.get("small"), rows.get("huge"), rows.get("after")]).toEqual(["s", huge, "a"]);
  });

  it("picks rows by their bytes, read in place, and returns the keys it picked", () => {
    const rows = new OffHeapRows();
    rows.set("id-1", '0\n1795707557796\n["ключ"]');
    rows.set("id-2", "1\n1795707557796\n[]");
    rows.set("id-3", "0\ud800 ill-formed");
    const picked = rows.pick((bytes, start, end) =>
      bytes[start] === 0x30 ? Buffer.from(bytes.subarray(start, end)).toString("utf8") : null,
    );
    expect(sorted(picked)).toEqual([
      ["id-1", '0\n1795707557796\n["ключ"]'],
      ["id-3", "0\ufffd ill-formed"],
    ]);
  });
});
