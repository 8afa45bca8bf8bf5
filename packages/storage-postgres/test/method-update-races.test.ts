import { setTimeout as sleep } from "node:timers/promises";
import { type Clock, createRenewalWorker, DEFAULT_DUNNING_POLICY } from "@kopek/core";
import { createHarness } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxContractProvider } from "../../provider-sandbox/test/contract-provider.js";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// API.md 11.5 against a dunning retry at that very instant (issue 41 part 8): the payer's new method
// put on through Kopek on one pool, the renewal worker retrying the past-due cycle on another pool —
// another connection set, as another process would have. The overdue cycle is charged exactly once,
// the new method stays on, its check is refunded, and the worker never charges the old method after.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

const LEASE_MS = 60_000;
const COUNT = 30;
type Json = Record<string, unknown>;
const json = (response: { body: string }) => JSON.parse(response.body) as Json;
const fixedClock = (at: number): Clock => ({ now: () => new Date(at) });

describe(`a method update racing a dunning retry on ${db.backend}`, () => {
  it.runIf(db.isRealServer)(
    "charges the overdue cycle once, keeps the new method and refunds its check (real server only)",
    async () => {
      const h = await createHarness({
        createStorage: () => createPostgresStorage({ pool: db.pool, encryption: testCipher() }),
        createProvider: sandboxContractProvider,
        declinedRef: "sandbox_decline_contract",
      });
      // The ref of every charge the workers make, as the provider receives it.
      const charged: string[] = [];
      const provider = {
        ...h.provider,
        chargeStoredMethod: (request: Parameters<typeof h.provider.chargeStoredMethod>[0]) => {
          charged.push(request.ref);
          return h.provider.chargeStoredMethod(request);
        },
      };
      const workerAt = (at: number) =>
        createRenewalWorker({
          storage: createPostgresStorage({ pool: db.newPool({ max: 5 }), encryption: testCipher() }),
          providerFor: () => provider,
          clock: fixedClock(at),
          batchSize: 5,
          leaseMs: LEASE_MS,
        });
      const created: Json[] = [];
      for (let i = 0; i < COUNT; i++)
        created.push(
          json(
            await h.call("/v1/subscriptions", {
              amount: { amount: "149900", currency: "RUB" },
              period: { unit: "month", count: 1 },
              method: "card",
              providerMethodRef: "pm_contract_card",
            }),
          ),
        );
      // Every first renewal declined: past due, retried a day later.
      const dueAt = Date.parse(String(created[0]?.nextChargeAt));
      h.injectChargeFaults(...created.map(() => "decline" as const));
      expect(await workerAt(dueAt).runOnce()).toMatchObject({ declined: COUNT });
      const retryAt = dueAt + (DEFAULT_DUNNING_POLICY.retryOffsetsMs[0] ?? 0);

      // Each payer confirms a new card at the provider; Kopek hears of it (the return) while the retry runs.
      h.clock.advance(retryAt - 1 - h.clock.now().getTime());
      const checks: { id: string; updateId: string; paymentId: string }[] = [];
      for (const s of created) {
        const link = json(await h.call(`/v1/subscriptions/${s.id}/method-update`, {}));
        const updateId = String(link.url).split("/").at(-1) ?? "";
        const at = { projectId: h.project.id, subscriptionId: String(s.id), updateId };
        const started = (await h.kopek.methodUpdates.start({ ...at, method: "card" }))._unsafeUnwrap();
        if (started.kind !== "confirm") throw new Error("the link was not open");
        h.provider.confirm(started.payment.providerPaymentId ?? "", "succeed");
        checks.push({ id: String(s.id), updateId, paymentId: started.payment.id });
      }
      const worker = workerAt(retryAt);
      charged.length = 0;
      await Promise.all([
        worker.runOnce(),
        ...checks.map(async (c, i) => {
          await sleep((checks.length - i) * 4);
          const checked = await h.kopek.methodUpdates.check({
            projectId: h.project.id,
            subscriptionId: c.id,
            updateId: c.updateId,
            paymentId: c.paymentId,
          });
          expect(checked.isOk()).toBe(true);
        }),
      ]);
      // What the race left due now or leased: the next runs take it up.
      await workerAt(retryAt + LEASE_MS).runOnce();
      expect(await workerAt(retryAt + LEASE_MS + 1).runOnce()).toMatchObject({ claimed: 0 });

      // One charge per subscription in all: the retry's, from the old card (recorded before the new one
      // was on), or the new card's once it was.
      expect(charged).toHaveLength(COUNT);
      const outcomes = {
        oldMethod: charged.filter((ref) => ref === "pm_contract_card").length,
        newMethod: charged.filter((ref) => ref !== "pm_contract_card").length,
      };
      for (const c of checks) {
        const stored = (await h.storage.findSubscription(h.project.id, c.id))._unsafeUnwrap();
        expect(stored).toMatchObject({ status: "active", cyclesStarted: 2 });
        expect(stored?.providerMethodRef).not.toBe("pm_contract_card");
        expect(stored?.methodUpdate?.completedBy).toBe(c.paymentId);
        const payments = (json(await h.get("/v1/payments", { subscriptionId: c.id, limit: "20" })).data ??
          []) as Json[];
        const cycle2 = payments.filter(
          (p) => p.kind === "cycle" && p.cycle === 2 && p.status === "succeeded",
        );
        expect(cycle2).toHaveLength(1);
        const check = payments.find((p) => p.kind === "verification");
        expect(check).toMatchObject({ status: "succeeded", amountRefunded: { amount: "100" } });
      }
      console.info(`method update vs retry: ${JSON.stringify(outcomes)}`);
    },
    120_000,
  );
});
