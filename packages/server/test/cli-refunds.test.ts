import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandboxLedger, createSandboxProvider } from "@kopek/provider-sandbox";
import { samplePayment } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { kopekOn, serverStorageOn } from "./cli-in-process.js";

// `kopek refunds create` in this process, on a fresh database, with the sandbox's books in a ledger
// file so the command's own sandbox provider knows the charge the test made.
const db = await openTestDatabase();
const scratch = await mkdtemp(join(tmpdir(), "kopek-cli-refunds-"));
afterAll(async () => {
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});
const key = randomBytes(32);
const ledgerFile = join(scratch, "ledger.jsonl");

const kopek = (...argv: string[]) =>
  kopekOn(db, argv, { KOPEK_ENCRYPTION_KEY: key.toString("base64"), KOPEK_SANDBOX_LEDGER_FILE: ledgerFile });

describe(`kopek refunds (${db.backend})`, () => {
  it("refunds part, then the rest, of a succeeded payment, and refuses anything more", async () => {
    expect((await kopek("migrate")).code).toBe(0);
    const project = (await kopek("projects", "create", "--name", "shop")).stdout.trim();
    const sandbox = createSandboxProvider({ ledger: createSandboxLedger({ file: ledgerFile }) });
    const money = { amount: "10000", currency: "RUB" };
    const charge = (
      await sandbox.chargeStoredMethod({
        paymentId: crypto.randomUUID(),
        ref: "pm_cli_refund",
        method: "card",
        money,
        description: "cli refund",
        receipt: null,
        idempotencyKey: crypto.randomUUID(),
      })
    )._unsafeUnwrap();
    const storage = serverStorageOn(db, key);
    const payment = samplePayment(project, { amount: money, providerPaymentId: charge.providerPaymentId });
    (await storage.savePayment(payment, []))._unsafeUnwrap();

    const part = await kopek(
      "refunds",
      "create",
      "--project",
      project,
      "--payment",
      payment.id,
      "--amount",
      "4000",
      "--reason",
      "damaged",
    );
    expect(part).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(part.stdout)).toMatchObject({
      paymentId: payment.id,
      status: "succeeded",
      amount: { amount: "4000", currency: "RUB" },
      reason: "damaged",
    });
    const rest = await kopek("refunds", "create", "--project", project, "--payment", payment.id);
    expect(JSON.parse(rest.stdout)).toMatchObject({
      status: "succeeded",
      amount: { amount: "6000", currency: "RUB" },
    });
    expect((await storage.findPayment(project, payment.id))._unsafeUnwrap()?.amountRefunded).toBe("10000");

    const more = await kopek(
      "refunds",
      "create",
      "--project",
      project,
      "--payment",
      payment.id,
      "--amount",
      "1",
    );
    expect(more.code).toBe(1);
    expect(more.stderr).toMatch(/^kopek: refund_exceeds_payment: /);
    const unknown = await kopek("refunds", "create", "--project", project, "--payment", crypto.randomUUID());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no payment");
    expect((await kopek("refunds", "create", "--project", project)).code).toBe(2);
    expect(
      (await kopek("refunds", "create", "--project", project, "--payment", payment.id, "--amount", "1.5"))
        .code,
    ).toBe(2);
  });
});
