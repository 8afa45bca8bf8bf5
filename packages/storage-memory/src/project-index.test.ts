import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProjectIndex } from "./project-index.js";

type Step =
  | { readonly kind: "add"; readonly late: boolean }
  | { readonly kind: "evict"; readonly oldest: boolean; readonly pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("add" as const), late: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("evict" as const), oldest: fc.boolean(), pick: fc.nat() }),
  },
);

describe("ProjectIndex", () => {
  it("lists the live ids newest first, whatever is added and evicted in whatever order", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 3000 }), fc.integer({ min: 1, max: 50 }), (steps, limit) => {
        const index = new ProjectIndex();
        const live = new Set<string>();
        let next = 10_000;
        for (const s of steps) {
          if (s.kind === "add") {
            // Mostly the next id in order; a late one sorts before some already added.
            const id = String(s.late ? next - 7 - (next % 13) : next);
            next += 20;
            if (live.has(id)) continue;
            live.add(id);
            index.add(id);
          } else if (live.size > 0) {
            const ids = [...live].sort();
            const id = s.oldest ? (ids[0] as string) : (ids[s.pick % ids.length] as string);
            live.delete(id);
            index.forget(id, (candidate) => live.has(candidate));
          }
        }
        const isLive = (id: string) => live.has(id);
        const expected = [...live].sort().reverse();
        expect(index.newest(limit, null, isLive)).toEqual(expected.slice(0, limit));
        const before = expected[Math.floor(expected.length / 2)] ?? null;
        expect(index.newest(limit, before, isLive)).toEqual(
          expected.filter((id) => before === null || id < before).slice(0, limit),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("drops the oldest ids without asking whether any other is live", () => {
    const index = new ProjectIndex();
    for (let i = 0; i < 5000; i++) index.add(String(100_000 + i));
    let asked = 0;
    for (let i = 0; i < 4990; i++) index.forget(String(100_000 + i), () => ++asked > 0);
    expect(asked).toBe(0);
    expect(index.newest(20, null, () => true)).toEqual(
      Array.from({ length: 10 }, (_, i) => String(104_999 - i)),
    );
  });
});
