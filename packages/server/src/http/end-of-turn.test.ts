import { describe, expect, it } from "vitest";
import { endOfTurn } from "./end-of-turn.js";

describe("endOfTurn", () => {
  it("resolves in the check phase: after the turn's microtasks, before the callbacks queued after it", async () => {
    const order: string[] = [];
    const ended = endOfTurn().then(() => order.push("end of turn"));
    queueMicrotask(() => order.push("microtask"));
    setImmediate(() => order.push("immediate queued after it"));
    await ended;
    expect(order).toEqual(["microtask", "end of turn"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["microtask", "end of turn", "immediate queued after it"]);
  });

  it("is one promise for every wait within a turn, and a new one in the next turn", async () => {
    const first = endOfTurn();
    expect(endOfTurn()).toBe(first);
    await first;
    const next = endOfTurn();
    expect(next).not.toBe(first);
    await next;
  });

  it("lets the waits of one turn resume in the order they began", async () => {
    const resumed: number[] = [];
    await Promise.all([1, 2, 3].map((n) => endOfTurn().then(() => resumed.push(n))));
    expect(resumed).toEqual([1, 2, 3]);
  });
});
