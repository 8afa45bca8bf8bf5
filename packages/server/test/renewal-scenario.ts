import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { generateApiKey, hashApiKey } from "@kopek/core";
import { sandboxMethodFingerprint } from "@kopek/provider-sandbox";
import { type LedgerLine, readLedgerFile, setClockFile } from "./clock-file.js";
import { subscriptionBody } from "./helper.js";
import { postJson, type ServerProcess, startServerProcess } from "./server-process.js";

const DAY_MS = 86_400_000;
const START = "2027-01-31T10:00:00.000Z";
export const SCENARIO_REF = "sandbox_decline_charge_4_e2e";

// biome-ignore lint/suspicious/noExplicitAny: the subscription is read as plain JSON; the test asserts its shape.
type Json = Record<string, any>;

export interface ScenarioResult {
  /** The subscription after each step: status, cyclesStarted, nextChargeAt. */
  readonly steps: readonly string[];
  readonly final: Json;
  /** The sandbox's successful charges of the subscription's method, oldest first. */
  readonly charges: readonly LedgerLine[];
  readonly log: string;
  readonly exitCode: number | null;
  readonly elapsedMs: number;
}

/**
 * A real `kopek serve` (storage as `env` says) with its worker every 50 ms and a test clock: a monthly
 * subscription created on 2027-01-31 whose 4th charge is declined, driven through 13 charged cycles by
 * moving the clock to each `nextChargeAt` (to +1 day while past due) and waiting for the worker.
 */
export interface ClockedServer {
  readonly server: ServerProcess;
  readonly apiKey: string;
  readonly clockFile: string;
  readonly ledgerFile: string;
  /** The environment it was started with: a restart after a crash uses it again. */
  readonly env: Record<string, string>;
  /** Kills the server if it still runs and deletes its files. */
  cleanUp(): Promise<void>;
}

/** `kopek serve` on a test clock set to 2027-01-31T10:00Z, a ledger file and a project with a key. */
export async function startClockedServer(env: Record<string, string>): Promise<ClockedServer> {
  const scratch = await mkdtemp(join(tmpdir(), "kopek-renewals-"));
  const clockFile = join(scratch, "clock");
  const ledgerFile = join(scratch, "ledger.jsonl");
  const apiKey = generateApiKey();
  const projects = [
    {
      id: randomUUID(),
      name: "e2e",
      provider: { kind: "sandbox" },
      apiKeys: [{ sha256: hashApiKey(apiKey) }],
    },
  ];
  await writeFile(join(scratch, "projects.json"), JSON.stringify({ projects }));
  await setClockFile(clockFile, START);
  const serverEnv = {
    NODE_ENV: "test",
    KOPEK_TEST_CLOCK_FILE: clockFile,
    KOPEK_SANDBOX_LEDGER_FILE: ledgerFile,
    KOPEK_PROJECTS_FILE: join(scratch, "projects.json"),
    KOPEK_WORKER_INTERVAL_MS: "50",
    ...env,
  };
  const server = await startServerProcess(serverEnv);
  await setClockFile(clockFile, START); // again: the server took a while to start
  const cleanUp = async () => {
    await server.kill();
    await rm(scratch, { recursive: true, force: true });
  };
  return { server, apiKey, clockFile, ledgerFile, env: serverEnv, cleanUp };
}

/**
 * A real `kopek serve` (storage as `env` says) with its worker every 50 ms and a test clock: a monthly
 * subscription created on 2027-01-31 whose 4th charge is declined, driven through 13 charged cycles by
 * moving the clock to each `nextChargeAt` (to +1 day while past due) and waiting for the worker.
 */
export async function runThirteenCycles(env: Record<string, string>): Promise<ScenarioResult> {
  const started = Date.now();
  const { server, apiKey, clockFile, ledgerFile, cleanUp } = await startClockedServer(env);
  try {
    const body = subscriptionBody({ providerMethodRef: SCENARIO_REF });
    const created = await postJson(`${server.url}/v1/subscriptions`, apiKey, randomUUID(), body);
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    const read = async (): Promise<Json> => {
      const response = await fetch(`${server.url}/v1/subscriptions/${JSON.parse(created.body).id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return (await response.json()) as Json;
    };
    const describe = (s: Json) => `${s.status} ${s.cyclesStarted} ${s.nextChargeAt}`;
    let subscription = await read();
    const steps = [describe(subscription)];
    while (subscription.cyclesStarted < 13 && steps.length < 20) {
      const due = Date.parse(subscription.nextChargeAt);
      await setClockFile(clockFile, new Date(subscription.status === "past_due" ? due + DAY_MS : due));
      const before = describe(subscription);
      const deadline = Date.now() + 5000;
      while (describe(subscription) === before && Date.now() < deadline) {
        await sleep(20);
        subscription = await read();
      }
      steps.push(describe(subscription));
    }
    const fingerprint = sandboxMethodFingerprint(SCENARIO_REF);
    const charges = (await readLedgerFile(ledgerFile)).filter((c) => c.methodFingerprint === fingerprint);
    const exitCode = await server.stop();
    const log = server.cli.stdout();
    return { steps, final: subscription, charges, log, exitCode, elapsedMs: Date.now() - started };
  } finally {
    await cleanUp();
  }
}
