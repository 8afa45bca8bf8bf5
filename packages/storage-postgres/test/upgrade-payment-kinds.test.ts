import { samplePayment, sampleProject } from "@kopek/testing";
import { afterAll, expect, it } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

const db = await openTestDatabase();
afterAll(() => db.close());

it("0016: a payment without a kind (an older process's row) reads as invoice or cycle, and filters so", async () => {
  await migrate(db.pool);
  const storage = createPostgresStorage({ pool: db.pool, encryption: testCipher() });
  const project = sampleProject();
  (await storage.saveProject(project))._unsafeUnwrap();
  const subscriptionId = crypto.randomUUID();
  const invoicePayment = samplePayment(project.id);
  const cyclePayment = samplePayment(project.id, {
    invoiceId: null,
    subscriptionId,
    cycle: 1,
    attempt: null,
  });
  const proration = samplePayment(project.id, {
    invoiceId: null,
    subscriptionId,
    cycle: 1,
    attempt: null,
    kind: "proration",
  });
  for (const payment of [invoicePayment, cyclePayment, proration])
    (await storage.savePayment(payment, []))._unsafeUnwrap();
  // What an older process inserts: no kind at all.
  await db.pool.query("UPDATE payments SET kind = NULL WHERE project_id = $1 AND id = ANY ($2::uuid[])", [
    project.id,
    [invoicePayment.id, cyclePayment.id],
  ]);
  const kindOf = async (id: string) => (await storage.findPayment(project.id, id))._unsafeUnwrap()?.kind;
  expect(await kindOf(invoicePayment.id)).toBe("invoice");
  expect(await kindOf(cyclePayment.id)).toBe("cycle");
  expect(await kindOf(proration.id)).toBe("proration");
  const listed = async (kind: "cycle" | "invoice" | "proration") =>
    (
      await storage.listPayments(project.id, {
        limit: 10,
        before: null,
        invoiceId: null,
        subscriptionId: null,
        status: null,
        kind,
      })
    )
      ._unsafeUnwrap()
      .map((p) => p.id);
  expect(await listed("cycle")).toEqual([cyclePayment.id]);
  expect(await listed("invoice")).toEqual([invoicePayment.id]);
  expect(await listed("proration")).toEqual([proration.id]);
});
