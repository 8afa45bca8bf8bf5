import { generateWebhookSecret, hashApiKey } from "@kopek/core";
import { createMemoryStorage } from "@kopek/storage-memory";
import { describe, expect, test } from "vitest";
import { applyProjectsFile, parseProjectsFile, resolveProjectsFile } from "./projects-file.js";

const ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b";
const SHA = "a".repeat(64);
const WHSEC = generateWebhookSecret();
const file = (project: Record<string, unknown>) =>
  JSON.stringify({
    projects: [
      { id: ID, name: "shop", provider: { kind: "sandbox" }, apiKeys: [{ sha256: SHA }], ...project },
    ],
  });

/** A file as the server loads it: parsed, each provider's secret read (none here). */
const loaded = async (text: string) =>
  (
    await resolveProjectsFile(parseProjectsFile(text)._unsafeUnwrap(), { baseDir: "/", env: {} })
  )._unsafeUnwrap();

describe("parseProjectsFile", () => {
  test("storedMethodCharge defaults to true", () => {
    const parsed = parseProjectsFile(file({}))._unsafeUnwrap();
    expect(parsed.projects[0]?.provider).toEqual({ kind: "sandbox", storedMethodCharge: true });
  });

  test("an http provider: url, storedMethodCharge true and the adapter's timeout by default", () => {
    const parsed = parseProjectsFile(file({ provider: { kind: "http", url: "http://127.0.0.1:4010" } }));
    expect(parsed._unsafeUnwrap().projects[0]?.provider).toEqual({
      kind: "http",
      url: "http://127.0.0.1:4010",
      storedMethodCharge: true,
      timeoutMs: null,
    });
  });

  test.each([
    [
      file({ apiKeys: [{ sha256: "A".repeat(64) }] }),
      "projects[0].apiKeys[0].sha256 must be 64 lower-case hex characters",
    ],
    [file({ apiKeys: [{ sha256: "abc" }] }), "projects[0].apiKeys[0].sha256 must be 64 lower-case hex"],
    [file({ id: "shop-1" }), "projects[0].id must be a UUID"],
    [
      file({ provider: { kind: "http", url: "ftp://x" } }),
      "projects[0].provider.url must be an http:// or https:// URL",
    ],
    [
      file({ provider: { kind: "http", url: "https://provider.example.com" } }),
      "projects[0].provider.url must be on this machine (localhost, 127.0.0.1 or [::1]): the http provider is an unauthenticated test harness",
    ],
    [
      file({ provider: { kind: "http", url: "http://127.0.0.1:4010", timeoutMs: 0 } }),
      "projects[0].provider.timeoutMs must be from 1 to 60000",
    ],
    [
      file({ provider: { kind: "stripe" } }),
      `projects[0].provider.kind must be "sandbox", "http", "yookassa" or "tbank"`,
    ],
    [
      file({ provider: { kind: "sandbox", storedMethodCharge: "yes" } }),
      "projects[0].provider.storedMethodCharge must be true or false",
    ],
    [file({ name: "" }), "projects[0].name must not be empty"],
    [
      file({ webhooks: [{ url: "/hooks", secret: WHSEC }] }),
      "projects[0].webhooks[0].url must be an http:// or https:// URL",
    ],
    [
      file({ webhooks: [{ url: "https://shop.example/h", secret: "whsec_c2hvcnQ=" }] }),
      "projects[0].webhooks[0].secret must be whsec_ followed by base64",
    ],
    [
      file({ webhooks: [{ url: "https://shop.example/h", secret: WHSEC, enabled: true }] }),
      "projects[0].webhooks[0].enabled is not a known field",
    ],
    [
      file({
        webhooks: [
          { url: "https://shop.example/h", secret: WHSEC },
          { url: "https://shop.example/h", secret: WHSEC },
        ],
      }),
      "projects[0].webhooks[1].url repeats another webhook's url",
    ],
    [file({ colour: "red" }), "projects[0].colour is not a known field"],
    [JSON.stringify({ projects: {} }), "projects must be an array of projects"],
    ["{ not json", "is not valid JSON"],
  ])("%s is refused: %s", (text, message) => {
    expect(parseProjectsFile(text)._unsafeUnwrapErr()).toContain(message);
  });

  test("a repeated project id or key hash is refused", () => {
    const project = { id: ID, name: "a", provider: { kind: "sandbox" }, apiKeys: [{ sha256: SHA }] };
    const twice = JSON.stringify({ projects: [project, { ...project, apiKeys: [] }] });
    expect(parseProjectsFile(twice)._unsafeUnwrapErr()).toContain("projects[1].id repeats");
    const sharedKey = JSON.stringify({
      projects: [project, { ...project, id: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7c" }],
    });
    expect(parseProjectsFile(sharedKey)._unsafeUnwrapErr()).toContain(
      "projects[1].apiKeys[0].sha256 is listed twice",
    );
  });
});

test("applyProjectsFile creates, then updates by id, and keys authenticate", async () => {
  const storage = createMemoryStorage();
  const key = "kopek_any";
  const first = await loaded(file({ apiKeys: [{ sha256: hashApiKey(key) }] }));
  expect((await applyProjectsFile(storage, first))._unsafeUnwrap()).toBe(1);
  const renamed = await loaded(
    file({
      name: "shop 2",
      provider: { kind: "sandbox", storedMethodCharge: false },
      apiKeys: [{ sha256: hashApiKey(key) }],
    }),
  );
  await applyProjectsFile(storage, renamed);
  const projects = (await storage.listProjects())._unsafeUnwrap();
  expect(projects).toHaveLength(1);
  expect(projects[0]).toMatchObject({
    id: ID,
    name: "shop 2",
    provider: { kind: "sandbox", storedMethodCharge: false },
  });
  expect((await storage.findProjectByKeyHash(hashApiKey(key)))._unsafeUnwrap()?.project.id).toBe(ID);
  expect((await storage.listApiKeys(ID))._unsafeUnwrap()).toHaveLength(1);
});

test("applyProjectsFile refuses a project deleted with --force: it would get keys and webhooks again", async () => {
  const storage = createMemoryStorage();
  const first = await loaded(file({ apiKeys: [{ sha256: hashApiKey("kopek_any") }] }));
  await applyProjectsFile(storage, first);
  const at = new Date("2026-03-01T10:00:00.000Z");
  await storage.markProjectDeleted(ID, at);
  expect((await applyProjectsFile(storage, first))._unsafeUnwrapErr()).toBe(
    `project ${ID} was deleted at ${at.toISOString()} (kopek projects delete): remove it from the file`,
  );
});

test("applyProjectsFile creates webhook endpoints by URL, then updates their secret, never duplicating", async () => {
  const storage = createMemoryStorage();
  const hooks = (secret: string) =>
    loaded(
      file({
        webhooks: [
          { url: "https://shop.example/a", secret },
          { url: "https://shop.example/b", secret: WHSEC },
        ],
      }),
    );
  await applyProjectsFile(storage, await hooks(WHSEC));
  const first = (await storage.listWebhookEndpoints(ID))._unsafeUnwrap();
  expect(first.map((e) => [e.url, e.secret, e.enabled])).toEqual([
    ["https://shop.example/a", WHSEC, true],
    ["https://shop.example/b", WHSEC, true],
  ]);
  // A restart with the same file changes nothing; a new secret updates the endpoint in place.
  await applyProjectsFile(storage, await hooks(WHSEC));
  const rotated = generateWebhookSecret();
  await applyProjectsFile(storage, await hooks(rotated));
  const after = (await storage.listWebhookEndpoints(ID))._unsafeUnwrap();
  expect(after.map((e) => e.id)).toEqual(first.map((e) => e.id));
  expect(after.map((e) => e.secret)).toEqual([rotated, WHSEC]);
});

test("applyProjectsFile leaves a disabled endpoint disabled and endpoints it does not name alone", async () => {
  const storage = createMemoryStorage();
  const parsed = await loaded(file({ webhooks: [{ url: "https://shop.example/a", secret: WHSEC }] }));
  await applyProjectsFile(storage, parsed);
  const [endpoint] = (await storage.listWebhookEndpoints(ID))._unsafeUnwrap();
  await storage.disableWebhookEndpoint(ID, endpoint?.id ?? "", new Date(), "kept failing");
  const other = { ...(endpoint as NonNullable<typeof endpoint>), id: "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a00" };
  await storage.saveWebhookEndpoint({ ...other, url: "https://cli.example/h", enabled: true });
  await applyProjectsFile(storage, parsed);
  const after = (await storage.listWebhookEndpoints(ID))._unsafeUnwrap();
  expect(after.map((e) => [e.url, e.enabled])).toEqual([
    ["https://shop.example/a", false],
    ["https://cli.example/h", true],
  ]);
});

test("displayName: checked like the CLI's, applied, and removed when the file drops it", async () => {
  expect(parseProjectsFile(file({ displayName: "" }))._unsafeUnwrapErr()).toBe(
    "projects[0].displayName must be 1-100 characters, not only spaces",
  );
  expect(parseProjectsFile(file({ displayName: "x".repeat(101) })).isErr()).toBe(true);
  expect(parseProjectsFile(file({ displayName: "Shop\u202E" }))._unsafeUnwrapErr()).toBe(
    "projects[0].displayName must contain printable characters only",
  );
  expect(parseProjectsFile(file({ displayName: "4111 1111 1111 1111" }))._unsafeUnwrapErr()).toBe(
    "projects[0].displayName must not contain a card number",
  );
  expect(parseProjectsFile(file({ displayName: 7 }))._unsafeUnwrapErr()).toBe(
    "projects[0].displayName must be a string",
  );
  const storage = createMemoryStorage();
  await applyProjectsFile(storage, await loaded(file({ displayName: "Кофейня «Зерно»" })));
  expect((await storage.findProject(ID))._unsafeUnwrap()?.displayName).toBe("Кофейня «Зерно»");
  await applyProjectsFile(storage, await loaded(file({})));
  expect((await storage.findProject(ID))._unsafeUnwrap()).not.toHaveProperty("displayName");
});

test("seller: each field checked by its rule, applied, and removed when the file drops it", async () => {
  const seller = {
    legalName: "ООО «Зерно»",
    inn: "7707083893",
    email: "shop@zerno.example",
    phone: "+79991234567",
    offerUrl: "https://zerno.example/offer",
    privacyUrl: "https://zerno.example/privacy",
  };
  expect(parseProjectsFile(file({ seller: { ...seller, inn: "7707083894" } }))._unsafeUnwrapErr()).toBe(
    "projects[0].seller.inn has a wrong check digit: not an ИНН",
  );
  expect(
    parseProjectsFile(file({ seller: { offerUrl: "http://zerno.example/offer" } }))._unsafeUnwrapErr(),
  ).toBe("projects[0].seller.offerUrl must be an https:// URL");
  expect(parseProjectsFile(file({ seller: { site: "https://zerno.example" } })).isErr()).toBe(true);
  const storage = createMemoryStorage();
  await applyProjectsFile(storage, await loaded(file({ seller })));
  expect((await storage.findProject(ID))._unsafeUnwrap()?.seller).toEqual(seller);
  await applyProjectsFile(storage, await loaded(file({ seller: { inn: "500100732259" } })));
  expect((await storage.findProject(ID))._unsafeUnwrap()?.seller).toEqual({ inn: "500100732259" });
  await applyProjectsFile(storage, await loaded(file({})));
  expect((await storage.findProject(ID))._unsafeUnwrap()).not.toHaveProperty("seller");
});
