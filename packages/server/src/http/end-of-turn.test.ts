import { describe, expect, it } from "vitest";
import { connectionTaken, endOfTurn, SHARE_WHILE_CONNECTING, turnToAnswer } from "./end-of-turn.js";

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

/** Starts `count` waits now; each records its number when it resumes. */
const waitsOf = (count: number, resumed: Array<number | string>) =>
  Promise.all(Array.from({ length: count }, (_, n) => turnToAnswer().then(() => resumed.push(n))));

const numbers = (from: number, count: number) => Array.from({ length: count }, (_, n) => from + n);

/** Waits past the check phase of the turn in which the last wait resumed. */
const pastTurnEnd = () => new Promise((resolve) => setImmediate(resolve));

const SHARE = SHARE_WHILE_CONNECTING;

describe("turnToAnswer", () => {
  it("resumes every request of a turn in its check phase, in order, when no connection came", async () => {
    const resumed: Array<number | string> = [];
    const all = waitsOf(SHARE * 3, resumed);
    setImmediate(() => resumed.push("turn ends"));
    await all;
    await pastTurnEnd();
    expect(resumed).toEqual([...numbers(0, SHARE * 3), "turn ends"]);
  });

  it("in a turn that took on a connection, resumes the oldest share and leaves the rest to the next turn", async () => {
    const resumed: Array<number | string> = [];
    connectionTaken();
    const all = waitsOf(SHARE * 2 + 1, resumed);
    setImmediate(() => resumed.push("first turn ends"));
    await all;
    // The next turn took on no connection: it resumes everything left, in order.
    expect(resumed).toEqual([...numbers(0, SHARE), "first turn ends", ...numbers(SHARE, SHARE + 1)]);
  });

  it("answers one share in each turn that takes on a connection, and every request in the end", async () => {
    const resumed: Array<number | string> = [];
    connectionTaken();
    const all = waitsOf(SHARE * 3, resumed);
    setImmediate(() => {
      resumed.push("turn 1 ends");
      connectionTaken();
      setImmediate(() => {
        resumed.push("turn 2 ends");
        connectionTaken();
      });
    });
    await all;
    expect(resumed).toEqual([
      ...numbers(0, SHARE),
      "turn 1 ends",
      ...numbers(SHARE, SHARE),
      "turn 2 ends",
      ...numbers(SHARE * 2, SHARE),
    ]);
    await pastTurnEnd();
  });

  it("forgets a connection taken in a turn with no request waiting", async () => {
    connectionTaken();
    await pastTurnEnd();
    const resumed: Array<number | string> = [];
    const all = waitsOf(SHARE + 2, resumed);
    setImmediate(() => resumed.push("turn ends"));
    await all;
    await pastTurnEnd();
    expect(resumed).toEqual([...numbers(0, SHARE + 2), "turn ends"]);
  });
});
