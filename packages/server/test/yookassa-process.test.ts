import { randomUUID } from "node:crypto";
import { EMULATOR_SUCCESS_CARD } from "@kopek/provider-yookassa/emulator";
import { expect, it } from "vitest";
import { setClockFile } from "./clock-file.js";
import { postJson, startServerProcess } from "./server-process.js";
import { type Json, until } from "./yookassa-fixture.js";
import { prepareYooKassaProject } from "./yookassa-project-files.js";

// A real `kopek serve` process configured as an operator would (API.md 10.8): a projects file with
// `provider: { kind: "yookassa", shopId, secretKeyFile, apiUrl }` pointed at the emulator, a webhook,
// its worker on, and the test clock file. One invoice is paid through the emulator's notification,
// another's notification is lost and the server's reconciler settles it once the clock is a minute on.
it("kopek serve with a yookassa project from the projects file: notification and reconciliation both settle", async () => {
  const { emulator, receiver, projectId, apiKey, projectsFile, clockFile, close } =
    await prepareYooKassaProject("yookassa");
  await setClockFile(clockFile, new Date());
  const server = await startServerProcess({
    NODE_ENV: "test",
    KOPEK_PROJECTS_FILE: projectsFile,
    KOPEK_TEST_CLOCK_FILE: clockFile,
    KOPEK_WORKER_INTERVAL_MS: "50",
  });
  try {
    const [line] = await server.cli.waitFor(/^.*provider notification URL.*$/m);
    const notificationUrl = `${server.url}/provider-events/${projectId}/yookassa`;
    expect(JSON.parse(line)).toMatchObject({ projectId, providerKind: "yookassa", notificationUrl });
    expect(server.cli.stdout() + server.cli.stderr()).not.toContain(emulator.secretKey);
    const get = async (path: string): Promise<Json> =>
      (await (
        await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })
      ).json()) as Json;
    const payAtEmulator = async () => {
      const created = await postJson(`${server.url}/v1/invoices`, apiKey, randomUUID(), {
        amount: { amount: "149900", currency: "RUB" },
      });
      expect(created.status).toBe(201);
      const invoice = JSON.parse(created.body) as Json;
      const html = await (await fetch(invoice.paymentUrl)).text();
      const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
      const chosen = await fetch(invoice.paymentUrl, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({ token, method: "card" }).toString(),
      });
      expect(chosen.status).toBe(303);
      const confirmationUrl = chosen.headers.get("location") ?? "";
      expect(confirmationUrl.startsWith(`${emulator.url}/checkout/`)).toBe(true);
      const paid = await fetch(confirmationUrl, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ outcome: "pay", card: EMULATOR_SUCCESS_CARD }).toString(),
      });
      expect(paid.status).toBe(303); // the payer does not follow it back
      return invoice.id as string;
    };
    const status = async (id: string) => (await get(`/v1/invoices/${id}`)).status;

    // Notified: the emulator's notification settles it.
    emulator.notifyTo(notificationUrl);
    const notified = await payAtEmulator();
    await emulator.deliveries();
    expect(await status(notified)).toBe("paid");

    // Lost: nobody tells the server; a minute on (the clock file), its reconciler asks and settles.
    emulator.notifyTo(null);
    const lost = await payAtEmulator();
    await new Promise((r) => setTimeout(r, 300));
    expect(await status(lost)).toBe("created");
    await setClockFile(clockFile, new Date(Date.now() + 61_000));
    expect(await until(async () => (await status(lost)) === "paid", 5000)).toBe(true);
    const payments = (await get(`/v1/payments?invoiceId=${lost}`)).data as Json[];
    expect(payments).toMatchObject([
      { status: "succeeded", provider: "yookassa", methodMask: "5555 55** **** 4477" },
    ]);

    expect(await until(() => receiver.received.length >= 2)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    const paidIds = receiver.received.map((hook) => (JSON.parse(hook.body) as Json).data.id).sort();
    expect(paidIds).toEqual([notified, lost].sort());
    expect(emulator.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(await server.stop()).toBe(0);
    expect(server.cli.stdout() + server.cli.stderr()).not.toContain(emulator.secretKey);
  } finally {
    await server.kill();
    await close();
  }
}, 30_000);
