import { randomBytes, randomUUID } from "node:crypto";
import {
  type CustomerRecord,
  createUuidV7Generator,
  customerEvent,
  generateApiKey,
  hashApiKey,
  type InspectableStorage,
  type Storage,
} from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { migrate } from "@kopek/storage-postgres";
import {
  sampleInvoice,
  sampleProject,
  sampleReceipt,
  sampleSubscription,
  sampleWebhookEndpoint,
} from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../storage-postgres/test/database.js";
import { projectsDelete } from "../src/cli/projects-delete-command.js";
import { kopekOn, serverStorageOn, storedAsTheApiWould } from "./cli-in-process.js";

// `kopek projects delete` (API.md 11.1): the command on memory storage, and as typed on PostgreSQL.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);
const key = randomBytes(32);
const env = { KOPEK_ENCRYPTION_KEY: key.toString("base64") };
const kopek = (...argv: string[]) => kopekOn(db, argv, env);
const ids = createUuidV7Generator();

type Answer = Awaited<ReturnType<typeof kopekOn>>;

/** Where the command runs: the storage it deletes in, and the command run on it. */
const TARGETS: readonly [
  name: string,
  open: () => { storage: InspectableStorage; remove: (id: string, ...options: string[]) => Promise<Answer> },
][] = [
  [
    "memory",
    () => {
      const storage = createMemoryStorage();
      const remove = async (id: string, ...options: string[]) => {
        const out = { stdout: "", stderr: "" };
        const io = {
          env: {},
          stdout: (t: string) => (out.stdout += t),
          stderr: (t: string) => (out.stderr += t),
        };
        const code = await projectsDelete({ storage, io }, id, { force: options.includes("--force") });
        return { code, ...out };
      };
      return { storage, remove };
    },
  ],
  [
    `PostgreSQL (${db.backend})`,
    () => ({
      storage: serverStorageOn(db, key),
      remove: (id: string, ...options: string[]) => kopek("projects", "delete", id, ...options),
    }),
  ],
];

/**
 * A project with an API key, a webhook endpoint and a customer (whose event is queued for it); with
 * `money`, also that customer's active subscription and invoice, both with its receipt contacts.
 */
async function shop(storage: Storage, money: boolean) {
  const project = sampleProject();
  (await storage.saveProject(project))._unsafeUnwrap();
  const sha256 = hashApiKey(generateApiKey());
  const apiKey = { id: randomUUID(), projectId: project.id, sha256, createdAt: new Date(), revokedAt: null };
  (await storage.addApiKey(apiKey))._unsafeUnwrap();
  (await storage.saveWebhookEndpoint(sampleWebhookEndpoint(project.id)))._unsafeUnwrap();
  const email = `payer-${randomUUID()}@example.com`;
  const customer: CustomerRecord = {
    id: ids.newId(),
    projectId: project.id,
    email,
    phone: "+79990001122",
    name: "Иван Петров",
    externalId: null,
    metadata: {},
    createdAt: new Date(),
    erasedAt: null,
    version: 1,
  };
  const created = customerEvent("customer.created", customer, new Date(), ids);
  (await storage.saveCustomer(customer, [created]))._unsafeUnwrap();
  const receipt = { ...sampleReceipt("149900"), customer: { email, phone: null } };
  const subscription = sampleSubscription(project.id, { customerId: customer.id, receipt });
  const invoice = sampleInvoice(project.id, {
    customerId: customer.id,
    customer: { email, phone: null, externalId: null },
  });
  if (money) {
    await storedAsTheApiWould(storage, { kind: "subscription", subscription });
    await storedAsTheApiWould(storage, { kind: "invoice", invoice });
  }
  return { project, apiKey, customer, subscription, invoice, email };
}

describe.each(TARGETS)("kopek projects delete on %s", (_name, open) => {
  it("deletes a project with no money records and everything it has, and prints what", async () => {
    const { storage, remove } = open();
    const { project, apiKey } = await shop(storage, false);
    expect(await remove(project.id)).toEqual({
      code: 0,
      stdout:
        `deleted project ${project.id} (${project.name}) with everything it had: 1 API key, 1 customer, ` +
        "1 event, 1 webhook endpoint, 1 webhook delivery, 0 idempotency records\n",
      stderr: "",
    });
    expect((await storage.findProject(project.id))._unsafeUnwrap()).toBeNull();
    expect((await storage.findProjectByKeyHash(apiKey.sha256))._unsafeUnwrap()).toBeNull();
    expect(await remove(project.id)).toEqual({
      code: 1,
      stdout: "",
      stderr: `kopek: project "${project.id}" does not exist (kopek projects list shows them)\n`,
    });
  });

  it("refuses while money records exist and changes nothing; --force erases only what API.md 11.1 allows", async () => {
    const { storage, remove } = open();
    const { project, apiKey, customer, subscription, invoice, email } = await shop(storage, true);
    const named = `project ${project.id} (${project.name})`;
    const before = JSON.stringify(await storage.inspect());
    expect(await remove(project.id)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `kopek: ${named} has 1 invoice, 1 subscription: money records stay (API.md 11.1); ` +
        `\`kopek projects delete ${project.id} --force\` erases the rest\n`,
    });
    expect(JSON.stringify(await storage.inspect())).toBe(before);

    const forced = await remove(project.id, "--force");
    expect(forced).toEqual({
      code: 0,
      stdout:
        `${named} is deleted; its money records stay (1 invoice, 1 subscription; API.md 11.1): ` +
        "1 API key revoked, 1 webhook endpoint removed, 1 subscription canceled, 1 customer erased\n",
      stderr: "",
    });
    const deletedAt = (await storage.findProject(project.id))._unsafeUnwrap()?.deletedAt;
    expect(deletedAt).toBeInstanceOf(Date);
    expect((await storage.findProjectByKeyHash(apiKey.sha256))._unsafeUnwrap()).toBeNull();
    expect((await storage.listWebhookEndpoints(project.id))._unsafeUnwrap()).toEqual([]);
    const newKey = { ...apiKey, id: randomUUID(), sha256: hashApiKey(generateApiKey()) };
    expect((await storage.addApiKey(newKey))._unsafeUnwrap()).toBe(false);
    // The money records stay; the subscription stops renewing; personal data goes, receipts' too.
    const canceled = (await storage.findSubscription(project.id, subscription.id))._unsafeUnwrap();
    expect(canceled).toMatchObject({ status: "canceled", cancelReason: "requested", canceledAt: deletedAt });
    expect(canceled?.receipt?.customer).toEqual({ email: "erased", phone: null });
    const kept = (await storage.findInvoice(project.id, invoice.id))._unsafeUnwrap();
    expect(kept).toMatchObject({ status: "created", customer: { email: "erased" } });
    const erased = (await storage.findCustomer(project.id, customer.id))._unsafeUnwrap();
    expect(erased).toMatchObject({ email: null, phone: null, name: null, erasedAt: deletedAt });
    const everything = JSON.stringify(await storage.inspect());
    for (const personal of [email, "+79990001122", "Иван Петров"]) expect(everything).not.toContain(personal);

    const iso = deletedAt?.toISOString();
    expect(await remove(project.id, "--force")).toEqual({
      code: 0,
      stdout: `${named} was deleted at ${iso}: nothing changed; its money records stay (1 invoice, 1 subscription; API.md 11.1)\n`,
      stderr: "",
    });
    expect(await remove(project.id)).toEqual({
      code: 1,
      stdout: "",
      stderr: `kopek: ${named} was deleted at ${iso} and keeps only its money records: 1 invoice, 1 subscription (API.md 11.1)\n`,
    });
  });
});

describe(`kopek projects delete, as typed (${db.backend})`, () => {
  it("a deleted project is listed as deleted and takes no new key", async () => {
    const storage = serverStorageOn(db, key);
    const { project } = await shop(storage, true);
    expect((await kopek("projects", "delete", project.id, "--force")).code).toBe(0);
    const deletedAt = (await storage.findProject(project.id))._unsafeUnwrap()?.deletedAt?.toISOString();
    const list = await kopek("projects", "list");
    expect(list.stdout).toMatch(
      new RegExp(`^${project.id}  ${project.name}  .*  deleted ${deletedAt}$`, "m"),
    );
    expect(await kopek("keys", "create", "--project", project.id)).toEqual({
      code: 1,
      stdout: "",
      stderr: `kopek: project ${project.id} is deleted (kopek projects delete): it takes no new key\n`,
    });
  });

  it("says in one line when it cannot read the project: another encryption key than the server's", async () => {
    const secretKey = `test_${randomBytes(32).toString("base64url")}`;
    const provider = {
      kind: "yookassa",
      shopId: "506751",
      secretKey,
      storedMethods: [],
      apiUrl: null,
    } as const;
    const project = sampleProject({ provider });
    (await serverStorageOn(db, key).saveProject(project))._unsafeUnwrap();
    const otherKey = { KOPEK_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    const refused = await kopekOn(db, ["projects", "delete", project.id], otherKey);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toMatch(/^kopek: .*set KOPEK_ENCRYPTION_KEY to the server's encryption key.*\n$/);
    expect((await serverStorageOn(db, key).findProject(project.id))._unsafeUnwrap()).toEqual(project);
  });

  it("refuses what it cannot do as usage errors: no id, --force elsewhere; an id of no project fails", async () => {
    const noId = await kopek("projects", "delete");
    expect(noId).toMatchObject({ code: 2, stdout: "" });
    expect(noId.stderr).toBe("kopek: projects delete needs a project id (see kopek --help)\n");
    const elsewhere = await kopek("projects", "list", "--force");
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(
      /^kopek: --force is an option of projects delete only\n\nUsage: kopek projects list/,
    );
    expect(await kopek("projects", "delete", "not-a-uuid")).toMatchObject({ code: 1 });
    const help = await kopek("projects", "delete", "--help");
    expect(help.stdout).toContain("projects delete <id> [--force]");
    expect(help.stdout).not.toContain("Provider options");
  });
});
