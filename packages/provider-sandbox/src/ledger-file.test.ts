import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoredMethodCharge } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { createSandboxLedger } from "./ledger.js";
import { createSandboxProvider } from "./sandbox-provider.js";
import { sandboxMethodFingerprint } from "./test-cards.js";

const scratch = mkdtempSync(join(tmpdir(), "kopek-sandbox-ledger-"));
const freshFile = () => join(scratch, `${randomUUID()}.jsonl`);
const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const chargeOf = (overrides: Partial<StoredMethodCharge> = {}): StoredMethodCharge => ({
  paymentId: randomUUID(),
  ref: "pm_test_secret_ref",
  method: "card",
  money: { amount: "999999999999999999", currency: "USD" },
  description: "Pro plan",
  receipt: null,
  idempotencyKey: randomUUID(),
  ...overrides,
});

describe("the sandbox ledger file", () => {
  it("gets one line per charge, written before the charge is reported, without the ref", async () => {
    const file = freshFile();
    const provider = createSandboxProvider({ ledger: createSandboxLedger({ file }), latencyMs: 200 });
    const request = chargeOf();
    const pending = provider.chargeStoredMethod(request);
    // The answer is still 200 ms away, and the line is already there.
    expect(lines(file)).toEqual([
      {
        chargeId: expect.stringMatching(/^ch_/),
        idempotencyKey: request.idempotencyKey,
        methodFingerprint: sandboxMethodFingerprint(request.ref),
        method: "card",
        amount: "999999999999999999",
        currency: "USD",
        chargedAt: expect.stringMatching(/Z$/),
        receipt: null,
      },
    ]);
    expect((await pending)._unsafeUnwrap().providerPaymentId).toBe(lines(file)[0]?.chargeId);
    await provider.chargeStoredMethod(request);
    expect(lines(file)).toHaveLength(1);
    expect(readFileSync(file, "utf8")).not.toContain(request.ref);
  });

  it("is loaded at start: a key charged before a restart is not charged again after it", async () => {
    const file = freshFile();
    const request = chargeOf();
    const before = await createSandboxProvider({ ledger: createSandboxLedger({ file }) }).chargeStoredMethod(
      request,
    );
    const restarted = createSandboxProvider({ ledger: createSandboxLedger({ file }) });
    expect(restarted.ledger.countCharges()).toBe(1);
    const after = await restarted.chargeStoredMethod(request);
    expect(after._unsafeUnwrap()).toEqual(before._unsafeUnwrap());
    const reused = await restarted.chargeStoredMethod({
      ...request,
      money: { amount: "1", currency: "USD" },
    });
    expect(reused._unsafeUnwrapErr().message).toBe("idempotency key reused with other parameters");
    expect(lines(file)).toHaveLength(1);
  });

  it("is shared by ledgers on the same file, as by two processes", async () => {
    const file = freshFile();
    const first = createSandboxProvider({ ledger: createSandboxLedger({ file }) });
    const second = createSandboxProvider({ ledger: createSandboxLedger({ file }) });
    const request = chargeOf();
    await first.chargeStoredMethod(request);
    await second.chargeStoredMethod(request);
    await second.chargeStoredMethod(chargeOf());
    expect(first.ledger.countCharges()).toBe(2);
    expect(second.ledger.countCharges({ idempotencyKey: request.idempotencyKey })).toBe(1);
    expect(lines(file)).toHaveLength(2);
  });

  it("refuses a file with a line that is not a charge, naming the line", () => {
    const file = freshFile();
    writeFileSync(file, `${JSON.stringify({ chargeId: "ch_1" })}\n`);
    expect(() => createSandboxLedger({ file })).toThrow(
      `sandbox: ledger file ${file} line 1 is not a charge`,
    );
  });
});

describe("simulated latency", () => {
  it("delays every answer by latencyMs", async () => {
    const provider = createSandboxProvider({ latencyMs: 150 });
    const started = performance.now();
    await provider.chargeStoredMethod(chargeOf());
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});
