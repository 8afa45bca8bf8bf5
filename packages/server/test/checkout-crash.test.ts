import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { EMULATOR_SUCCESS_CARD } from "@kopek/provider-yookassa/emulator";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { setClockFile } from "./clock-file.js";
import { postJson, type ServerProcess, startServerProcess } from "./server-process.js";
import { type Json, until } from "./yookassa-fixture.js";
import { prepareYooKassaProject } from "./yookassa-project-files.js";

// Issue 15: a kill -9 between the provider's answer and Kopek's commit, at the checkout. A real
// `kopek serve` on PostgreSQL with a YooKassa project (pointed at the emulator): the payer chooses
// card, YooKassa makes the payment but its answer never arrives, and the server is SIGKILLed while it
// waits. The attempt is left `pending` with no provider id. Restarted, the reconciler asks YooKassa
// again with the attempt's own Idempotence-Key (the same payment, not a second one); the payer comes
// back, chooses card again, is sent to that same payment, pays; the notification is lost, and the
// reconciler settles it on YooKassa's word. One payment at YooKassa, one Payment, one `invoice.paid`.
const db = await openTestDatabase();
afterAll(() => db.close());

describe("checkout killed between YooKassa's answer and the commit (real server only)", () => {
  it.runIf(db.isRealServer)(
    "is finished after a restart on the same payment: one provider payment, one invoice.paid",
    { timeout: 60_000 },
    async () => {
      const { emulator, receiver, apiKey, projectsFile, clockFile, close } =
        await prepareYooKassaProject("checkout-crash");
      let now = Date.now();
      await setClockFile(clockFile, new Date(now));
      // One address before and after the crash, as in production: the return URL sent with the attempt
      // is part of the request its key stands for, and YooKassa refuses a key repeated with another body.
      const port = await freePort();
      const env = {
        NODE_ENV: "test",
        PORT: String(port),
        KOPEK_PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: db.url ?? "",
        KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        KOPEK_PROJECTS_FILE: projectsFile,
        KOPEK_TEST_CLOCK_FILE: clockFile,
        KOPEK_WORKER_INTERVAL_MS: "50",
      };
      let server: ServerProcess = await startServerProcess(env);
      const moveClock = async (ms: number) => {
        now += ms;
        await setClockFile(clockFile, new Date(now));
      };
      const get = async (path: string): Promise<Json> =>
        (await (
          await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })
        ).json()) as Json;
      const chooseCard = async (paymentUrl: string, signal?: AbortSignal) => {
        const html = await (await fetch(paymentUrl)).text();
        const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
        return fetch(paymentUrl, {
          method: "POST",
          redirect: "manual",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: new URL(paymentUrl).origin,
          },
          body: new URLSearchParams({ token, method: "card" }).toString(),
          ...(signal ? { signal } : {}),
        });
      };
      const createPayments = () =>
        emulator.requests.filter((r) => r.method === "POST" && r.path === "/v3/payments");
      try {
        const created = await postJson(`${server.url}/v1/invoices`, apiKey, randomUUID(), {
          amount: { amount: "149900", currency: "RUB" },
          returnUrl: "https://shop.example/thanks",
        });
        expect(created.status).toBe(201);
        const invoice = JSON.parse(created.body) as Json;

        // YooKassa makes the payment and never answers; the server dies while it waits.
        emulator.failNext(1, "timeout", { afterProcessing: true });
        const abandoned = new AbortController();
        const choosing = chooseCard(invoice.paymentUrl, abandoned.signal).catch(() => null);
        expect(await until(() => createPayments().length === 1, 10_000)).toBe(true);
        await server.kill();
        abandoned.abort();
        await choosing;
        expect(emulator.books.payments.size).toBe(1);
        const { rows } = await db.queryAcrossProjects<{ status: string; provider_payment_id: string | null }>(
          "SELECT status, provider_payment_id FROM payments WHERE invoice_id = $1",
          [invoice.id],
        );
        // The attempt was written before YooKassa was called; its answer never was.
        expect(rows).toEqual([{ status: "pending", provider_payment_id: null }]);

        // Restarted a minute on: the reconciler asks again with the same key and learns the payment's id.
        server = await startServerProcess(env);
        await moveClock(61_000);
        const learned = async () => {
          const [payment] = (await get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
          return payment?.providerPaymentId !== null && payment?.providerPaymentId !== undefined;
        };
        expect(await until(learned, 10_000)).toBe(true);
        const [providerPaymentId] = [...emulator.books.payments.keys()];
        expect(createPayments()).toHaveLength(2);
        expect(new Set(createPayments().map((r) => r.idempotenceKey)).size).toBe(1);

        // The payer comes back and chooses card again: sent to that same payment, and pays it.
        const chosen = await chooseCard(invoice.paymentUrl);
        expect(chosen.status).toBe(303);
        const confirmationUrl = chosen.headers.get("location") ?? "";
        expect(confirmationUrl).toBe(`${emulator.url}/checkout/${providerPaymentId}`);
        const paid = await fetch(confirmationUrl, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }).toString(),
        });
        expect(paid.status).toBe(303); // the payer closes the tab; no notification is configured either

        // The reconciler's next check (back-off: a minute or more) settles it on YooKassa's word.
        expect((await get(`/v1/invoices/${invoice.id}`)).status).toBe("created");
        await moveClock(5 * 60_000);
        expect(
          await until(async () => (await get(`/v1/invoices/${invoice.id}`)).status === "paid", 10_000),
        ).toBe(true);
        const payments = (await get(`/v1/payments?invoiceId=${invoice.id}`)).data as Json[];
        expect(payments).toMatchObject([{ status: "succeeded", providerPaymentId, provider: "yookassa" }]);
        expect(emulator.books.payments.size).toBe(1);
        expect(await until(() => receiver.received.length >= 1)).toBe(true);
        await new Promise((r) => setTimeout(r, 300));
        const hooks = receiver.received.map((hook) => JSON.parse(hook.body) as Json);
        expect(hooks.map((hook) => [hook.type, hook.data.id])).toEqual([["invoice.paid", invoice.id]]);
      } finally {
        await server.kill();
        await close();
      }
    },
  );
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === "object" && address !== null ? address.port : 0;
}
