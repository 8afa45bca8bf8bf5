import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { readLedgerFile, setClockFile } from "./clock-file.js";
import { subscriptionBody, uniqueMethodRef } from "./helper.js";
import { startClockedServer } from "./renewal-scenario.js";
import { postJson } from "./server-process.js";

it("SIGTERM while a renewal is in flight: it finishes and is logged before storage closes, exit 0", async () => {
  // Every sandbox answer takes 600 ms; the charge is booked before the answer leaves the sandbox.
  const clocked = await startClockedServer({ KOPEK_SANDBOX_LATENCY_MS: "600" });
  const { server, apiKey, clockFile, ledgerFile } = clocked;
  try {
    const body = subscriptionBody({ providerMethodRef: uniqueMethodRef("pm") });
    const created = await postJson(`${server.url}/v1/subscriptions`, apiKey, randomUUID(), body);
    expect(created.status).toBe(201);
    await setClockFile(clockFile, JSON.parse(created.body).nextChargeAt);
    while ((await readLedgerFile(ledgerFile)).length < 2) await sleep(10);

    const signalled = Date.now();
    server.cli.child.kill("SIGTERM");
    expect(await server.cli.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5000);
    const log = server.cli.stdout();
    const renewed = log.indexOf('"result":"charged","msg":"renewal attempted"');
    expect(renewed).toBeGreaterThan(log.indexOf('"msg":"shutting down: finishing in-flight work"'));
    expect(log.indexOf('"msg":"stopped"')).toBeGreaterThan(renewed);
  } finally {
    await clocked.cleanUp();
  }
}, 30_000); // starting a server process alone can take 5 s on a busy machine
