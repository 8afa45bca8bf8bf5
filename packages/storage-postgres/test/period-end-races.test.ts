import { setTimeout as sleep } from "node:timers/promises";
import { type Clock, createRenewalWorker } from "@kopek/core";
import { createHarness } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxContractProvider } from "../../provider-sandbox/test/contract-provider.js";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// API.md 11.2 against the renewal at that very instant (issue 41 part 8): cancels at period end sent
// through Kopek on one pool while a renewal worker on another pool — another connection set, as
// another process would have — renews the same subscriptions. Every write is version-checked, so for
// each subscription exactly one meaning wins: the cancel (200, never charged again) or the renewal
// (charged once, the cancel refused with 409).
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

const LEASE_MS = 60_000;
const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;
const subscriptionBody = () => ({
  amount: { amount: "149900", currency: "RUB" },
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_contract_card",
});
const fixedClock = (at: number): Clock => ({ now: () => new Date(at) });

describe(`cancel at period end racing the renewal on ${db.backend}`, () => {
  it.runIf(db.isRealServer)(
    "40 subscriptions: each either canceled uncharged or renewed once with its cancel refused (real server only)",
    async () => {
      const h = await createHarness({
        createStorage: () => createPostgresStorage({ pool: db.pool, encryption: testCipher() }),
        createProvider: sandboxContractProvider,
        declinedRef: "sandbox_decline_contract",
      });
      const created = [];
      for (let i = 0; i < 40; i++) created.push(json(await h.call("/v1/subscriptions", subscriptionBody())));
      const dueAt = Date.parse(String(created[0]?.nextChargeAt));
      // The API's clock is a millisecond before the period ends; the worker's has reached it.
      h.clock.advance(dueAt - 1 - h.clock.now().getTime());
      const workerAt = (at: number) =>
        createRenewalWorker({
          storage: createPostgresStorage({ pool: db.newPool({ max: 5 }), encryption: testCipher() }),
          providerFor: () => h.provider,
          clock: fixedClock(at),
          batchSize: 5,
          leaseMs: LEASE_MS,
        });
      const charges = h.chargeCalls();
      const [report, ...answers] = await Promise.all([
        workerAt(dueAt).runOnce(),
        // Spread over the worker's run, newest first while the worker renews oldest first, so some
        // cancels come before its claim, some between its claim and its charge, some after.
        ...created.map(async (s, i) => {
          await sleep((created.length - i) * 4);
          return h.call(`/v1/subscriptions/${s.id}/cancel`, { at: "period_end" });
        }),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
      // Renewals whose attempt lost to a cancel come back when their lease ends, and then end uncharged.
      const late = await workerAt(dueAt + LEASE_MS).runOnce();

      // Each subscription ends one of three ways, and is charged at most once:
      // - the cancel came first: 200, and it ended uncharged at the period's end;
      // - it came while the renewal was under way: 409, renewed;
      // - it came after the renewal: 200, renewed, and canceled at the end of the period now paid.
      const outcomes = { canceled: 0, refused: 0, after: 0 };
      for (const [i, s] of created.entries()) {
        const now = json(await h.get(`/v1/subscriptions/${s.id}`));
        if (statuses[i] === 409) {
          expect(json(answers[i] ?? { body: "{}" }).code).toBe("invalid_state");
          expect(now).toMatchObject({ status: "active", cancelAt: null, cyclesStarted: 2 });
          outcomes.refused += 1;
        } else if (now.status === "canceled") {
          expect(now).toMatchObject({ canceledAt: s.nextChargeAt, cyclesStarted: 1 });
          outcomes.canceled += 1;
        } else {
          expect(now).toMatchObject({ status: "active", cyclesStarted: 2, cancelAt: now.nextChargeAt });
          expect(Date.parse(String(now.nextChargeAt))).toBeGreaterThan(dueAt);
          outcomes.after += 1;
        }
      }
      console.info(
        `period-end race: ${JSON.stringify(outcomes)}; worker ${JSON.stringify(report)}, then ${JSON.stringify(late)}`,
      );
      expect(h.chargeCalls() - charges).toBe(outcomes.refused + outcomes.after);
      // Nothing is due again before the next period: no second charge for anyone.
      expect(await workerAt(dueAt + LEASE_MS + 1).runOnce()).toMatchObject({ claimed: 0 });
    },
    120_000,
  );
});
