import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { runThirteenCycles, SCENARIO_REF, type ScenarioResult } from "./renewal-scenario.js";

// The month ends from a Jan 31 anchor; the 4th charge (Apr 30) is declined and retried a day later.
const CHARGE_DATES = [
  "2027-01-31",
  "2027-02-28",
  "2027-03-31",
  "2027-05-01",
  "2027-05-31",
  "2027-06-30",
  "2027-07-31",
  "2027-08-31",
  "2027-09-30",
  "2027-10-31",
  "2027-11-30",
  "2027-12-31",
  "2028-01-31",
];

function expectThirteenCycles(result: ScenarioResult, storage: string) {
  console.info(
    `renewals e2e (${storage}): ${result.charges.length} charges in ${result.elapsedMs} ms: ` +
      result.charges.map((charge) => charge.chargedAt.slice(0, 10)).join(", "),
  );
  expect(result.charges.map((charge) => charge.chargedAt.slice(0, 10))).toEqual(CHARGE_DATES);
  expect(new Set(result.charges.map((charge) => charge.idempotencyKey)).size).toBe(13);
  // The clock runs on from the instant in its file, so the anchor is a moment after 10:00 on Jan 31.
  const { startedAt } = result.final;
  expect(startedAt).toMatch(/^2027-01-31T10:00:/);
  const timeOfDay = startedAt.slice(10);
  // Three cycles charged, the 4th (due Apr 30) declined: past due once, then active again.
  expect(result.steps.filter((step) => step.startsWith("past_due"))).toEqual([
    `past_due 3 2027-04-30${timeOfDay}`,
  ]);
  expect(result.final).toMatchObject({
    status: "active",
    cyclesStarted: 13,
    nextChargeAt: `2028-02-29${timeOfDay}`,
    canceledAt: null,
  });
  expect(result.final.lastChargedAt.slice(0, 10)).toBe("2028-01-31");
  // One log line per attempt: 12 renewals charged and one declined, by id, never the method ref.
  const attempts = result.log.split("\n").filter((line) => line.includes('"msg":"renewal attempted"'));
  expect(attempts.filter((line) => line.includes('"result":"charged"'))).toHaveLength(12);
  expect(attempts.filter((line) => line.includes('"result":"declined"'))).toHaveLength(1);
  expect(attempts.every((line) => line.includes(`"subscriptionId":"${result.final.id}"`))).toBe(true);
  // Counted as the API counts cycles (1 = the first charge, made at creation): renewals are 2 to 13.
  const logged = attempts.map((line) => JSON.parse(line) as { cycle: number; result: string });
  expect(logged.map(({ cycle, result }) => `${cycle} ${result}`)).toEqual([
    "2 charged",
    "3 charged",
    "4 declined",
    ...Array.from({ length: 10 }, (_, i) => `${i + 4} charged`),
  ]);
  // The provider keys keep the period (cycle − 1) they always carried, so no key changed on upgrade.
  expect(result.charges[1]?.idempotencyKey).toBe(`kopek:renewal:${result.final.id}:1:0`);
  expect(result.log).not.toContain(SCENARIO_REF);
  expect(result.exitCode).toBe(0);
}

describe("a monthly subscription through 13 cycles with one declined charge (real server, test clock)", () => {
  it("on memory storage", { timeout: 30_000 }, async () => {
    expectThirteenCycles(await runThirteenCycles({}), "memory");
  });
});

const db = await openTestDatabase();
afterAll(() => db.close());

describe("the same on PostgreSQL (real server only)", () => {
  it.runIf(db.isRealServer)("on PostgreSQL", { timeout: 30_000 }, async () => {
    const env = {
      DATABASE_URL: db.url ?? "",
      KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    expectThirteenCycles(await runThirteenCycles(env), "postgres");
  });
});
