import { randomBytes } from "node:crypto";
import type { Project } from "@kopek/core";
import { sampleProject } from "@kopek/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresStorage, createTokenCipher, migrate } from "../src/index.js";
import { openTestDatabase } from "./database.js";
import { testCipher } from "./test-cipher.js";

// A real provider's secret key at rest (API.md 10.8): what a database dump would show.
const db = await openTestDatabase();
afterAll(() => db.close());
await migrate(db.pool);
const storage = createPostgresStorage({ pool: db.pool, encryption: testCipher() });

function yooKassaProject(): Project & { provider: { kind: "yookassa"; secretKey: string } } {
  const secretKey = `test_${randomBytes(32).toString("base64url")}`;
  const provider = {
    kind: "yookassa",
    shopId: "506751",
    secretKey,
    storedMethods: ["card", "sbp"],
    apiUrl: null,
  } as const;
  return { ...sampleProject(), provider };
}

function tBankProject(): Project & { provider: { kind: "tbank"; password: string } } {
  const password = randomBytes(12).toString("base64url");
  const provider = {
    kind: "tbank",
    terminalKey: "1700000000000DEMO",
    password,
    storedMethods: ["card"],
    apiUrl: null,
  } as const;
  return { ...sampleProject(), provider };
}

async function rawRow(id: string) {
  const { rows } = await db.pool.query(
    `SELECT provider, provider::text AS provider_text, provider_secrets_ciphertext, provider_secrets_key_id
       FROM projects WHERE id = $1`,
    [id],
  );
  return rows[0];
}

describe(`provider secrets on PostgreSQL (${db.backend})`, () => {
  it("stores the secret key encrypted, apart from the settings, and reads it back decrypted", async () => {
    const project = yooKassaProject();
    (await storage.saveProject(project))._unsafeUnwrap();
    const row = await rawRow(project.id);
    expect(row.provider).toEqual({
      kind: "yookassa",
      shopId: "506751",
      storedMethods: ["card", "sbp"],
      apiUrl: null,
    });
    expect(row.provider_secrets_key_id).toBe("test");
    expect(Buffer.isBuffer(row.provider_secrets_ciphertext)).toBe(true);
    expect(row.provider_secrets_ciphertext.toString("latin1")).not.toContain(project.provider.secretKey);
    expect(row.provider_text).not.toContain(project.provider.secretKey);
    expect((await storage.findProject(project.id))._unsafeUnwrap()).toEqual(project);
  });

  it("stores a T-Bank terminal password encrypted the same way, and reads it back", async () => {
    const project = tBankProject();
    (await storage.saveProject(project))._unsafeUnwrap();
    const row = await rawRow(project.id);
    expect(row.provider).toEqual({
      kind: "tbank",
      terminalKey: "1700000000000DEMO",
      storedMethods: ["card"],
      apiUrl: null,
    });
    expect(row.provider_secrets_ciphertext.toString("latin1")).not.toContain(project.provider.password);
    expect(row.provider_text).not.toContain(project.provider.password);
    expect((await storage.findProject(project.id))._unsafeUnwrap()).toEqual(project);
  });

  it("leaves no ciphertext once the project moves to a provider without secrets", async () => {
    const project = yooKassaProject();
    (await storage.saveProject(project))._unsafeUnwrap();
    const sandbox: Project = { ...project, provider: { kind: "sandbox", storedMethodCharge: true } };
    (await storage.saveProject(sandbox))._unsafeUnwrap();
    expect(await rawRow(project.id)).toMatchObject({
      provider_secrets_ciphertext: null,
      provider_secrets_key_id: null,
    });
    expect((await storage.findProject(project.id))._unsafeUnwrap()).toEqual(sandbox);
  });

  it("refuses a ciphertext copied onto another project, and a read with the wrong key", async () => {
    const [first, second] = [yooKassaProject(), yooKassaProject()];
    for (const project of [first, second]) (await storage.saveProject(project))._unsafeUnwrap();
    await db.pool.query(
      `UPDATE projects SET provider_secrets_ciphertext = (SELECT provider_secrets_ciphertext FROM projects WHERE id = $1)
        WHERE id = $2`,
      [first.id, second.id],
    );
    expect((await storage.findProject(second.id)).isErr()).toBe(true);
    const otherKey = createTokenCipher({
      keys: [{ id: "test", key: randomBytes(32) }],
      currentKeyId: "test",
    });
    const wrong = createPostgresStorage({ pool: db.pool, encryption: otherKey });
    expect((await wrong.findProject(first.id)).isErr()).toBe(true);
  });

  it("refuses a secret key written in clear into the settings column", async () => {
    const project = sampleProject();
    await expect(
      db.pool.query("INSERT INTO projects (id, name, provider, created_at) VALUES ($1, 'x', $2, now())", [
        project.id,
        JSON.stringify({ kind: "yookassa", shopId: "1", secretKey: "test_plain" }),
      ]),
    ).rejects.toThrow(/projects_provider_no_plain_secret_check/);
  });

  it("refuses a T-Bank password written in clear into the settings column", async () => {
    const project = sampleProject();
    await expect(
      db.pool.query("INSERT INTO projects (id, name, provider, created_at) VALUES ($1, 'x', $2, now())", [
        project.id,
        JSON.stringify({ kind: "tbank", terminalKey: "T", password: "plain" }),
      ]),
    ).rejects.toThrow(/projects_provider_no_plain_password_check/);
  });
});
