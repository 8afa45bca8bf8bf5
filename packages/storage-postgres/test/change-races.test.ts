import { setTimeout as sleep } from "node:timers/promises";
import { type Clock, createRenewalWorker } from "@kopek/core";
import { createHarness, type KopekHarness } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxContractProvider } from "../../provider-sandbox/test/contract-provider.js";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// API.md 11.3 and 11.4 against the renewal at that very instant, and a resume against a pause (issue
// 41 part 8): requests through Kopek on one pool, a renewal worker on another pool — another
// connection set, as another process would have. Every write is version-checked, so for each
// subscription one meaning wins, and every cycle is charged exactly once.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);

const LEASE_MS = 60_000;
const COUNT = 40;
type Json = Record<string, unknown>;
const json = (response: { body: string }) => JSON.parse(response.body) as Json;
const RUB = (amount: string) => ({ amount, currency: "RUB" });
const subscriptionBody = () => ({
  amount: RUB("149900"),
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_contract_card",
});
const fixedClock = (at: number): Clock => ({ now: () => new Date(at) });

async function setUp() {
  const h = await createHarness({
    createStorage: () => createPostgresStorage({ pool: db.pool, encryption: testCipher() }),
    createProvider: sandboxContractProvider,
    declinedRef: "sandbox_decline_contract",
  });
  const created: Json[] = [];
  for (let i = 0; i < COUNT; i++) created.push(json(await h.call("/v1/subscriptions", subscriptionBody())));
  const dueAt = Date.parse(String(created[0]?.nextChargeAt));
  const workerAt = (at: number) =>
    createRenewalWorker({
      storage: createPostgresStorage({ pool: db.newPool({ max: 5 }), encryption: testCipher() }),
      providerFor: () => h.provider,
      clock: fixedClock(at),
      batchSize: 5,
      leaseMs: LEASE_MS,
    });
  return { h, created, dueAt, workerAt };
}

/** The worker at `dueAt` racing `request` for every subscription, spread over its run (newest first). */
async function race(
  created: readonly Json[],
  worker: { runOnce(): Promise<unknown> },
  request: (s: Json) => Promise<{ status: number; body: string }>,
) {
  const [, ...answers] = await Promise.all([
    worker.runOnce(),
    ...created.map(async (s, i) => {
      await sleep((created.length - i) * 4);
      return request(s);
    }),
  ]);
  return answers;
}

async function cyclePayments(h: KopekHarness, id: unknown) {
  const listed = json(await h.get("/v1/payments", { subscriptionId: String(id), limit: "10" }));
  return (listed.data as Json[]).filter((p) => p.kind === "cycle");
}

describe(`changes racing renewals on ${db.backend}`, () => {
  it.runIf(db.isRealServer)(
    "a pause racing the renewal: paused uncharged, or renewed once with the pause refused or pausing next (real server only)",
    async () => {
      const { h, created, dueAt, workerAt } = await setUp();
      h.clock.advance(dueAt - 1 - h.clock.now().getTime());
      const charges = h.chargeCalls();
      const answers = await race(created, workerAt(dueAt), (s) =>
        h.call(`/v1/subscriptions/${s.id}/pause`, {}),
      );
      await workerAt(dueAt + LEASE_MS).runOnce();
      const outcomes = { paused: 0, refused: 0, after: 0 };
      for (const [i, s] of created.entries()) {
        const now = json(await h.get(`/v1/subscriptions/${s.id}`));
        const status = answers[i]?.status;
        expect([200, 409]).toContain(status);
        if (status === 409) {
          expect(now).toMatchObject({ status: "active", pauseAt: null, cyclesStarted: 2 });
          outcomes.refused += 1;
        } else if (now.status === "paused") {
          expect(now).toMatchObject({ pauseAt: s.nextChargeAt, cyclesStarted: 1 });
          outcomes.paused += 1;
        } else {
          expect(now).toMatchObject({ status: "active", cyclesStarted: 2, pauseAt: now.nextChargeAt });
          outcomes.after += 1;
        }
      }
      console.info(`pause race: ${JSON.stringify(outcomes)}`);
      expect(h.chargeCalls() - charges).toBe(outcomes.refused + outcomes.after);
      expect(await workerAt(dueAt + LEASE_MS + 1).runOnce()).toMatchObject({ claimed: 0 });
    },
    120_000,
  );

  it.runIf(db.isRealServer)(
    "a price change racing the renewal: cycle 2 charged once, at the new price only when the change came first (real server only)",
    async () => {
      const { h, created, dueAt, workerAt } = await setUp();
      h.clock.advance(dueAt - 1 - h.clock.now().getTime());
      const answers = await race(created, workerAt(dueAt), (s) =>
        h.call(`/v1/subscriptions/${s.id}`, { amount: RUB("199900") }),
      );
      await workerAt(dueAt + LEASE_MS).runOnce();
      const outcomes = { first: 0, refused: 0, after: 0 };
      for (const [i, s] of created.entries()) {
        const now = json(await h.get(`/v1/subscriptions/${s.id}`));
        const renewals = (await cyclePayments(h, s.id)).filter((p) => p.cycle === 2);
        expect(renewals).toHaveLength(1);
        expect(renewals[0]?.status).toBe("succeeded");
        const charged = (renewals[0]?.amount as Json | undefined)?.amount;
        expect(now.cyclesStarted).toBe(2);
        if (answers[i]?.status === 409) {
          expect(now.amount).toEqual(RUB("149900"));
          expect(charged).toBe("149900");
          outcomes.refused += 1;
        } else {
          expect(answers[i]?.status).toBe(200);
          expect(now.amount).toEqual(RUB("199900"));
          if (charged === "199900") outcomes.first += 1;
          else outcomes.after += 1;
        }
      }
      console.info(`price-change race: ${JSON.stringify(outcomes)}`);
      expect(await workerAt(dueAt + LEASE_MS + 1).runOnce()).toMatchObject({ claimed: 0 });
    },
    120_000,
  );

  it.runIf(db.isRealServer)(
    "a resume racing a pause of paused subscriptions: each resumed and charged once, pausing next only if the pause came after (real server only)",
    async () => {
      const { h, created, dueAt, workerAt } = await setUp();
      for (const s of created) expect((await h.call(`/v1/subscriptions/${s.id}/pause`, {})).status).toBe(200);
      expect(await workerAt(dueAt).runOnce()).toMatchObject({ paused: COUNT });
      h.clock.advance(dueAt + 86_400_000 - h.clock.now().getTime());
      const charges = h.chargeCalls();
      const answers = await Promise.all(
        created.flatMap((s, i) => [
          h.call(`/v1/subscriptions/${s.id}/resume`, {}),
          // Some pauses before the resume's write, some after it.
          sleep((i % 4) * 100).then(() => h.call(`/v1/subscriptions/${s.id}/pause`, {})),
        ]),
      );
      // Resumes succeed; a pause is a no-op on a paused one, 409 while the resume's charge is under
      // way, or pauses at the end of the period the resume paid.
      expect(answers.filter((_, i) => i % 2 === 0).every((answer) => answer.status === 200)).toBe(true);
      expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
      const outcomes = { pausingNext: 0, running: 0 };
      for (const s of created) {
        const now = json(await h.get(`/v1/subscriptions/${s.id}`));
        expect(now).toMatchObject({ status: "active", cyclesStarted: 2 });
        expect((await cyclePayments(h, s.id)).filter((p) => p.cycle === 2)).toHaveLength(1);
        if (now.pauseAt === null) outcomes.running += 1;
        else {
          expect(now.pauseAt).toBe(now.nextChargeAt);
          outcomes.pausingNext += 1;
        }
      }
      console.info(`resume/pause race: ${JSON.stringify(outcomes)}`);
      expect(h.chargeCalls() - charges).toBe(COUNT);
    },
    120_000,
  );
});
