import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sampleInvoice, samplePayment, sampleProject } from "@kopek/testing";
import { afterAll, expect, it as vitestIt } from "vitest";
import { createPostgresStorage, migrate } from "../src/index.js";
import { openTestDatabase, testDatabaseSchema } from "./database.js";
import { insertInvoiceAs01 } from "./invoice-as-01.js";
import { testCipher } from "./test-cipher.js";

const db = await openTestDatabase();
// From an empty database only: the partitioned and Citus modes start from a schema already migrated.
const it = vitestIt.runIf(testDatabaseSchema() === "plain");
const scratch = await mkdtemp(join(tmpdir(), "kopek-attempts-"));
afterAll(async () => {
  await db.close();
  await rm(scratch, { recursive: true, force: true });
});

it("0011 numbers earlier attempts as their provider keys did, per method, and counts them on the invoice", async () => {
  const upTo0010 = join(scratch, "0010");
  await cp(new URL("../migrations/", import.meta.url), upTo0010, { recursive: true });
  for (const name of await readdir(upTo0010)) if (name >= "0011") await rm(join(upTo0010, name));
  await migrate(db.pool, { directory: pathToFileURL(`${upTo0010}/`) });
  // Rows as 0010 held them: the invoice in SQL, payments by today's storage with the new columns (and
  // 0012's key, which its inserts name) dropped after.
  await db.pool.query(
    "ALTER TABLE payments ADD COLUMN attempt integer, ADD COLUMN customer_id uuid, ADD COLUMN kind text",
  );
  await db.pool.query("CREATE UNIQUE INDEX payments_key_of_0012 ON payments (project_id, id)");
  const storage = createPostgresStorage({ pool: db.pool, encryption: testCipher() });
  const project = sampleProject();
  // As 0010 held it: today's saveProject names columns 0010's schema does not have (seller, 0020).
  await db.pool.query("INSERT INTO projects (id, name, provider, created_at) VALUES ($1, $2, $3, $4)", [
    project.id,
    project.name,
    JSON.stringify(project.provider),
    project.createdAt,
  ]);
  const invoice = sampleInvoice(project.id);
  await insertInvoiceAs01(db.pool, invoice.id, project.id);
  const methods = ["card", "sbp", "card", "card", "sbp"] as const;
  const made = [];
  for (const method of methods) {
    const payment = samplePayment(project.id, { invoiceId: invoice.id, method, attempt: null });
    (await storage.savePayment(payment, []))._unsafeUnwrap();
    made.push(payment);
  }
  await db.pool.query("ALTER TABLE payments DROP COLUMN attempt, DROP COLUMN customer_id, DROP COLUMN kind");
  await db.pool.query("DROP INDEX payments_key_of_0012");

  // 0011, then the migrations after it.
  expect((await migrate(db.pool)).applied.slice(0, 2)).toEqual([11, 12]);
  const numbers = await Promise.all(
    made.map(async (p) => (await storage.findPayment(project.id, p.id))._unsafeUnwrap()?.attempt),
  );
  expect(numbers).toEqual([1, 1, 2, 3, 2]);
  expect((await storage.findInvoice(project.id, invoice.id))._unsafeUnwrap()?.attempts).toBe(5);
});
