import { type Clock, createRenewalWorker } from "@kopek/core";
import { createHarness } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxContractProvider } from "../../provider-sandbox/test/contract-provider.js";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// API.md 11.6 with several workers (issue 41 part 6): two renewal workers on separate pools — as two
// processes would be — take up the same trialing subscriptions at their notice time and at trialEnd.
// Each trial is told once and charged once.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

const DAY_MS = 86_400_000;
const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;
const fixedClock = (at: number): Clock => ({ now: () => new Date(at) });

describe(`trials with two workers on ${db.backend}`, () => {
  it.runIf(db.isRealServer)(
    "40 trials: 40 notices and 40 first charges, none twice (real server only)",
    async () => {
      const h = await createHarness({
        createStorage: () => createPostgresStorage({ pool: db.pool, encryption: testCipher() }),
        createProvider: sandboxContractProvider,
        declinedRef: "sandbox_decline_contract",
      });
      const trialEnd = h.clock.now().getTime() + 10 * DAY_MS;
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const created = await h.call("/v1/subscriptions", {
          amount: { amount: "149900", currency: "RUB" },
          period: { unit: "month", count: 1 },
          method: "card",
          providerMethodRef: "pm_contract_card",
          trialEnd: new Date(trialEnd).toISOString(),
        });
        ids.push(String(json(created).id));
      }
      const pools = [db.newPool({ max: 5 }), db.newPool({ max: 5 })];
      const race = (at: number) =>
        Promise.all(
          pools.map((pool) =>
            createRenewalWorker({
              storage: createPostgresStorage({ pool, encryption: testCipher() }),
              providerFor: () => h.provider,
              clock: fixedClock(at),
              batchSize: 5,
            }).runOnce(),
          ),
        );
      const sum = (reports: Awaited<ReturnType<typeof race>>, field: "claimed" | "notified" | "charged") =>
        reports.reduce((total, report) => total + report[field], 0);

      const noticed = await race(trialEnd - 3 * DAY_MS);
      expect([sum(noticed, "claimed"), sum(noticed, "notified"), sum(noticed, "charged")]).toEqual([
        40, 40, 0,
      ]);
      const charges = h.chargeCalls();
      const charged = await race(trialEnd);
      expect([sum(charged, "claimed"), sum(charged, "charged")]).toEqual([40, 40]);
      expect(h.chargeCalls() - charges).toBe(40);

      const stored = (await h.storage.listEventDeliveries(h.project.id))._unsafeUnwrap();
      const count = (type: string) => stored.filter(({ event }) => event.type === type).length;
      expect([count("subscription.trial_will_end"), count("subscription.activated")]).toEqual([40, 40]);
      for (const id of ids)
        expect(json(await h.get(`/v1/subscriptions/${id}`))).toMatchObject({
          status: "active",
          cyclesStarted: 1,
        });
      expect(await race(trialEnd + 1)).toMatchObject([{ claimed: 0 }, { claimed: 0 }]);
    },
    120_000,
  );
});
