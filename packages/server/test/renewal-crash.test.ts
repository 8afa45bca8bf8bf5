import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { readLedgerFile, setClockFile } from "./clock-file.js";
import { subscriptionBody, uniqueMethodRef } from "./helper.js";
import { startClockedServer } from "./renewal-scenario.js";
import { postJson, startServerProcess } from "./server-process.js";

// Issue 15: a kill -9 between the provider's answer and Kopek's commit never charges twice. A real
// `kopek serve` on PostgreSQL renews three subscriptions; the sandbox books each renewal in its ledger
// file at once and answers 1.5 s later, and the server is SIGKILLed as soon as all three are booked,
// before any answer arrived. Restarted on the same database and ledger, once the dead worker's leases
// (60 s) have run out on the test clock, the renewals are made again with the same provider keys: the
// sandbox answers with the charges it made, and each cycle is recorded once, as one Payment.
const db = await openTestDatabase();
afterAll(() => db.close());

const COUNT = 3;
// A minute after the anchor: every subscription (each create waits for the sandbox twice) is due by then.
const DUE = "2027-02-28T10:01:00.000Z";
const AFTER_LEASES = "2027-02-28T10:03:30.000Z";

// biome-ignore lint/suspicious/noExplicitAny: responses are read as plain JSON; the test asserts their shape.
type Json = Record<string, any>;

describe("renewals killed between the provider's answer and the commit (real server only)", () => {
  it.runIf(db.isRealServer)(
    "are finished after a restart with the same charges: one charge and one Payment per cycle",
    { timeout: 60_000 },
    async () => {
      const env = {
        DATABASE_URL: db.url ?? "",
        KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        KOPEK_SANDBOX_LATENCY_MS: "1500",
      };
      const clocked = await startClockedServer(env);
      const { apiKey, clockFile, ledgerFile } = clocked;
      let server = clocked.server;
      try {
        const ids: string[] = [];
        for (let i = 0; i < COUNT; i++) {
          const ref = uniqueMethodRef("pm_crash");
          const body = subscriptionBody({ providerMethodRef: ref });
          const created = await postJson(`${server.url}/v1/subscriptions`, apiKey, randomUUID(), body);
          expect(created.status).toBe(201);
          ids.push(JSON.parse(created.body).id as string);
        }
        expect(await readLedgerFile(ledgerFile)).toHaveLength(COUNT);

        // Due: the worker (every 50 ms) charges all three; kill as soon as the sandbox booked them.
        await setClockFile(clockFile, DUE);
        const deadline = Date.now() + 15_000;
        while ((await readLedgerFile(ledgerFile)).length < 2 * COUNT && Date.now() < deadline) await sleep(5);
        await server.kill();
        expect(await readLedgerFile(ledgerFile)).toHaveLength(2 * COUNT);
        const { rows } = await db.queryAcrossProjects<{ n: number }>(
          "SELECT count(*)::int AS n FROM subscriptions WHERE id = ANY($1) AND cycles_started = 2",
          [ids],
        );
        // The answers were 1.5 s away: none of the renewals was recorded before the kill.
        expect(rows[0]?.n).toBe(0);

        await setClockFile(clockFile, AFTER_LEASES);
        server = await startServerProcess(clocked.env);
        await setClockFile(clockFile, AFTER_LEASES);
        const read = async (path: string): Promise<Json> =>
          (await (
            await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })
          ).json()) as Json;
        const renewed = async () =>
          (await Promise.all(ids.map((id) => read(`/v1/subscriptions/${id}`)))).every(
            (s) => s.cyclesStarted === 2,
          );
        const until = Date.now() + 20_000;
        while (!(await renewed()) && Date.now() < until) await sleep(50);
        expect(await renewed()).toBe(true);

        // No second charge: the same six charges, one per key.
        const ledger = await readLedgerFile(ledgerFile);
        expect(ledger).toHaveLength(2 * COUNT);
        expect(new Set(ledger.map((charge) => charge.idempotencyKey)).size).toBe(2 * COUNT);
        for (const id of ids) {
          const payments = (await read(`/v1/payments?subscriptionId=${id}`)).data as Json[];
          expect(payments.map((p) => [p.cycle, p.status])).toEqual([
            [2, "succeeded"],
            [1, "succeeded"],
          ]);
          expect(ledger.map((charge) => charge.chargeId)).toContain(payments[0]?.providerPaymentId);
        }
      } finally {
        await server.kill();
        await clocked.cleanUp();
      }
    },
  );
});
