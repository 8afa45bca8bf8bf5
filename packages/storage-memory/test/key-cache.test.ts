import { randomUUID } from "node:crypto";
import { type Clock, createKopek, generateApiKey, hashApiKey, type Storage } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { expect, it } from "vitest";
import { createMemoryStorage } from "../src/index.js";

/** Kopek over memory storage that counts its key lookups, on a clock the test moves. */
async function setUp() {
  const storage = createMemoryStorage();
  let lookups = 0;
  const counting: Storage = {
    ...storage,
    findProjectByKeyHash: (sha256) => {
      lookups += 1;
      return storage.findProjectByKeyHash(sha256);
    },
  };
  let now = Date.parse("2026-11-22T09:00:00.000Z");
  const clock: Clock = { now: () => new Date(now) };
  const provider = createSandboxProvider({ clock });
  const kopek = createKopek({
    storage: counting,
    providerFor: () => provider,
    publicUrl: "https://pay.example",
    clock,
  });
  const project = {
    id: randomUUID(),
    name: "p",
    provider: { kind: "sandbox", storedMethodCharge: true },
    createdAt: new Date(now),
  } as const;
  const apiKey = generateApiKey();
  (await storage.saveProject(project))._unsafeUnwrap();
  (
    await storage.addApiKey({
      id: randomUUID(),
      projectId: project.id,
      sha256: hashApiKey(apiKey),
      createdAt: new Date(now),
      revokedAt: null,
    })
  )._unsafeUnwrap();
  const create = (key: string) =>
    kopek.handle({
      method: "POST",
      url: "/v1/invoices",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "idempotency-key": key,
        "content-type": "application/json",
      },
      body: JSON.stringify({ amount: { amount: "1000", currency: "RUB" } }),
    });
  return { storage, kopek, apiKey, create, lookups: () => lookups, advance: (ms: number) => (now += ms) };
}

it("looks a key up once, then answers writes from memory until the entry is 30 s old", async () => {
  const t = await setUp();
  for (let i = 0; i < 5; i++) expect((await t.create(`k${i}`)).status).toBe(201);
  expect(t.lookups()).toBe(1);
  t.advance(29_000);
  expect((await t.create("k-later")).status).toBe(201);
  expect(t.lookups()).toBe(1);
  t.advance(1_000);
  expect((await t.create("k-expired")).status).toBe(201);
  expect(t.lookups()).toBe(2);
});

it("still looks the key up for reads, so a revoked key never reads from memory", async () => {
  const t = await setUp();
  expect((await t.create("k1")).status).toBe(201);
  const list = () =>
    t.kopek.handle({ method: "GET", url: "/v1/invoices", headers: { authorization: `Bearer ${t.apiKey}` } });
  expect((await list()).status).toBe(200);
  expect(t.lookups()).toBe(2);
  (await t.storage.revokeApiKey(hashApiKey(t.apiKey), new Date()))._unsafeUnwrap();
  expect((await list()).status).toBe(401);
});

it("forgets a remembered key once a write finds it revoked, and looks it up afresh after", async () => {
  const t = await setUp();
  expect((await t.create("k1")).status).toBe(201);
  expect(t.lookups()).toBe(1);
  (await t.storage.revokeApiKey(hashApiKey(t.apiKey), new Date()))._unsafeUnwrap();
  // The write's own storage step checks the remembered key: refused without another lookup.
  expect((await t.create("k2")).status).toBe(401);
  expect(t.lookups()).toBe(1);
  // Forgotten: the next request looks the key up, and is refused there.
  expect((await t.create("k3")).status).toBe(401);
  expect(t.lookups()).toBe(2);
});
