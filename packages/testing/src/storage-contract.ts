import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { ApiKeyRecord, YooKassaProviderSettings } from "@kopek/core";
import { describe, expect, it } from "vitest";
import { sampleInvoice, sampleProject, sampleReceipt, sampleSubscription } from "./fixtures.js";
import { describeCountContract } from "./storage-contract-counts.js";
import { describeCreateOnceContract } from "./storage-contract-create-once.js";
import { describeEventLogContract } from "./storage-contract-event-log.js";
import { describeIdempotencyContract } from "./storage-contract-idempotency.js";
import { describeKeyLookupContract } from "./storage-contract-key-lookup.js";
import { describeLifecycleContract } from "./storage-contract-lifecycle.js";
import { describeOutboxContract } from "./storage-contract-outbox.js";
import { describePaymentContract } from "./storage-contract-payments.js";
import { describeProjectDeletionContract } from "./storage-contract-project-deletion.js";
import { describeRefundContract } from "./storage-contract-refunds.js";
import { describeSavedMethodContract } from "./storage-contract-saved-methods.js";
import {
  completionOf,
  newClaim,
  type StorageContractOptions,
  type StorageFactory,
  savedProject,
  serializedStorage,
  storeResource,
  unwrap,
} from "./storage-contract-support.js";
import { describeWebhookEndpointContract } from "./storage-contract-webhook-endpoints.js";

export type { StorageContractOptions } from "./storage-contract-support.js";

function sampleApiKey(projectId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const sha256 = createHash("sha256").update(randomUUID()).digest("hex");
  return { id: randomUUID(), projectId, sha256, createdAt: new Date(), revokedAt: null, ...overrides };
}

/** YooKassa settings with a fresh secret key shaped like YooKassa's (`test_` and 43 characters). */
function yooKassaSettings(overrides: Partial<YooKassaProviderSettings> = {}): YooKassaProviderSettings {
  const secretKey = `test_${randomBytes(32).toString("base64url")}`;
  return {
    kind: "yookassa",
    shopId: "506751",
    secretKey,
    storedMethods: ["card"],
    apiUrl: null,
    ...overrides,
  };
}

/**
 * The behaviour Kopek relies on from every `Storage` adapter. Each test takes a fresh storage from
 * `factory` and uses random ids and keys, so the suite can also run against a shared database.
 */
export function describeStorageContract(
  name: string,
  factory: StorageFactory,
  options: StorageContractOptions = {},
): void {
  describe(`${name} storage contract`, () => {
    describe("projects and API keys", () => {
      it("saves, finds and lists projects oldest first", async () => {
        const storage = await factory();
        const older = sampleProject({ createdAt: new Date("2025-03-01T10:00:00.001Z") });
        const newer = sampleProject({ createdAt: new Date("2025-03-01T10:00:00.002Z") });
        await unwrap(storage.saveProject(newer));
        await unwrap(storage.saveProject(older));
        expect(await unwrap(storage.findProject(older.id))).toEqual(older);
        expect(await unwrap(storage.findProject(randomUUID()))).toBeNull();
        const ours = (await unwrap(storage.listProjects())).filter((p) =>
          [older.id, newer.id].includes(p.id),
        );
        expect(ours).toEqual([older, newer]);
      });

      it("saving a project again updates its name and provider settings only", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const renamed = sampleProject({
          id: project.id,
          name: "renamed shop",
          provider: { kind: "sandbox", storedMethodCharge: false },
          createdAt: new Date("2030-01-01T00:00:00.000Z"),
        });
        await unwrap(storage.saveProject(renamed));
        expect(await unwrap(storage.findProject(project.id))).toEqual({
          ...renamed,
          createdAt: project.createdAt,
        });
        const all = await unwrap(storage.listProjects());
        expect(all.filter((p) => p.id === project.id)).toHaveLength(1);
      });

      it("keeps a project's display name and seller through saves and lookups, and drops them when saved without", async () => {
        const storage = await factory();
        const project = sampleProject({
          displayName: "ООО «Ромашка» ☕ <&>",
          seller: {
            legalName: "ООО «Ромашка»",
            inn: "7707083893",
            offerUrl: "https://romashka.example/offer",
          },
        });
        await unwrap(storage.saveProject(project));
        expect((await unwrap(storage.findProject(project.id)))?.displayName).toBe(project.displayName);
        const key = sampleApiKey(project.id);
        await unwrap(storage.addApiKey(key));
        expect(await unwrap(storage.findProjectByKeyHash(key.sha256))).toEqual({ project, keyId: key.id });
        const { displayName: _dropped, seller: _none, ...without } = project;
        await unwrap(storage.saveProject(without));
        const found = await unwrap(storage.findProject(project.id));
        expect(found).toEqual(without);
        expect(found !== null && ("displayName" in found || "seller" in found)).toBe(false);
      });

      it("keeps a real provider's settings, its secret key included, through saves and lookups", async () => {
        const storage = await factory();
        const project = sampleProject({ provider: yooKassaSettings() });
        await unwrap(storage.saveProject(project));
        expect(await unwrap(storage.findProject(project.id))).toEqual(project);
        const key = sampleApiKey(project.id);
        await unwrap(storage.addApiKey(key));
        expect(await unwrap(storage.findProjectByKeyHash(key.sha256))).toEqual({ project, keyId: key.id });
        // A rotated key replaces the old one; a move back to the sandbox leaves no secret behind.
        const rotated = { ...project, provider: yooKassaSettings({ storedMethods: [] }) };
        await unwrap(storage.saveProject(rotated));
        expect((await unwrap(storage.listProjects())).find((p) => p.id === project.id)).toEqual(rotated);
        const sandbox = { ...project, provider: { kind: "sandbox", storedMethodCharge: true } as const };
        await unwrap(storage.saveProject(sandbox));
        expect(await unwrap(storage.findProject(project.id))).toEqual(sandbox);
      });

      it("finds the owner of a live key by its hash, and nothing for unknown or revoked keys", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const key = sampleApiKey(project.id);
        await unwrap(storage.addApiKey(key));
        await unwrap(storage.addApiKey({ ...key, id: randomUUID() }));
        expect(await unwrap(storage.findProjectByKeyHash(key.sha256))).toEqual({ project, keyId: key.id });
        expect(await unwrap(storage.findProjectByKeyHash(sampleApiKey(project.id).sha256))).toBeNull();
        expect(await unwrap(storage.revokeApiKey(key.sha256, new Date()))).toBe(true);
        expect(await unwrap(storage.findProjectByKeyHash(key.sha256))).toBeNull();
        expect(await unwrap(storage.revokeApiKey(sampleApiKey(project.id).sha256, new Date()))).toBe(false);
      });

      it("lists a project's keys oldest first, revoked ones included", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const first = sampleApiKey(project.id, { createdAt: new Date("2025-05-05T05:05:05.005Z") });
        const second = sampleApiKey(project.id, { createdAt: new Date("2025-05-05T05:05:05.006Z") });
        await unwrap(storage.addApiKey(second));
        await unwrap(storage.addApiKey(first));
        await unwrap(storage.addApiKey(sampleApiKey((await savedProject(storage)).id)));
        const revokedAt = new Date("2025-06-06T06:06:06.006Z");
        await unwrap(storage.revokeApiKey(first.sha256, revokedAt));
        expect(await unwrap(storage.listApiKeys(project.id))).toEqual([{ ...first, revokedAt }, second]);
      });
    });

    describe("project isolation", () => {
      it("keeps the same idempotency key in two projects independent", async () => {
        const storage = await factory();
        const [a, b] = [await savedProject(storage), await savedProject(storage)];
        const inA = newClaim(a.id, Date.now());
        const inB = newClaim(b.id, Date.now(), { key: inA.key, fingerprint: inA.fingerprint });
        expect(await unwrap(storage.claimIdempotencyKey(inA))).toMatchObject({ kind: "claimed" });
        await unwrap(storage.completeIdempotencyKey(completionOf(inA, null)));
        expect(await unwrap(storage.claimIdempotencyKey(inB))).toEqual({
          kind: "claimed",
          recordId: inB.recordId,
          takenOver: false,
        });
      });

      it("finds no subscription or invoice through another project's id", async () => {
        const storage = await factory();
        const [owner, other] = [await savedProject(storage), await savedProject(storage)];
        const subscription = sampleSubscription(owner.id);
        const invoice = sampleInvoice(owner.id);
        await storeResource(storage, owner.id, { kind: "subscription", subscription });
        await storeResource(storage, owner.id, { kind: "invoice", invoice });
        expect(await unwrap(storage.findSubscription(owner.id, subscription.id))).toEqual(subscription);
        expect(await unwrap(storage.findSubscription(other.id, subscription.id))).toBeNull();
        expect(await unwrap(storage.findInvoice(owner.id, invoice.id))).toEqual(invoice);
        expect(await unwrap(storage.findInvoice(other.id, invoice.id))).toBeNull();
      });
    });

    describe("exactness", () => {
      it("round-trips an 18-digit amount, millisecond dates, unicode metadata and a receipt exactly", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const subscription = sampleSubscription(project.id, {
          amount: { amount: "999999999999999999", currency: "EUR" },
          nextChargeAt: new Date("2026-02-28T23:59:59.999Z"),
          metadata: {
            ключ: "значение 🌍",
            note: "\u00e9\u0301 \u{1F1F7}\u{1F1FA}",
            ["__proto__"]: "own key",
          },
          receipt: sampleReceipt("999999999999999999", "EUR"),
        });
        await storeResource(storage, project.id, { kind: "subscription", subscription });
        const found = await unwrap(storage.findSubscription(project.id, subscription.id));
        expect(found?.amount.amount).toBe("999999999999999999");
        expect(found?.nextChargeAt.toISOString()).toBe("2026-02-28T23:59:59.999Z");
        expect(found?.metadata).toEqual(subscription.metadata);
        expect(found).toEqual(subscription);
      });

      it("returns invoices exactly as stored, with and without optional values", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const full = sampleInvoice(project.id, {
          status: "paid",
          amount: { amount: "999999999999999999", currency: "RUB" },
          method: "sbp",
          pinnedMethod: "sbp",
          allowedMethods: ["sbp"],
          paidAt: new Date("2026-01-31T10:00:00.001Z"),
          customer: { email: "payer@example.com", phone: null, externalId: "crm-7" },
          receipt: { ...sampleReceipt("999999999999999999"), taxSystemCode: null },
        });
        const sparse = sampleInvoice(project.id, {
          comment: null,
          customer: null,
          returnUrl: null,
          metadata: {},
        });
        for (const invoice of [full, sparse]) {
          await storeResource(storage, project.id, { kind: "invoice", invoice });
          expect(await unwrap(storage.findInvoice(project.id, invoice.id))).toEqual(invoice);
        }
      });
    });

    describe("secrets", () => {
      it("persists the SHA-256 of an API key, never the key", async () => {
        const storage = await factory();
        const project = await savedProject(storage);
        const rawKey = `kopek_${randomBytes(24).toString("base64url")}`;
        const sha256 = createHash("sha256").update(rawKey).digest("hex");
        await unwrap(storage.addApiKey(sampleApiKey(project.id, { sha256 })));
        const persisted = await serializedStorage(storage);
        expect(persisted).toContain(sha256);
        expect(persisted).not.toContain(rawKey);
      });

      // Only for adapters that encrypt at rest; memory storage holds the token in process memory.
      if (options.encryptsMethodTokens) {
        it("persists no method token in plain text", async () => {
          const storage = await factory();
          const project = await savedProject(storage);
          const subscription = sampleSubscription(project.id, {
            providerMethodRef: `pm_secret_${randomUUID()}`,
          });
          await storeResource(storage, project.id, { kind: "subscription", subscription });
          expect(await serializedStorage(storage)).not.toContain(subscription.providerMethodRef);
          expect(await unwrap(storage.findSubscription(project.id, subscription.id))).toEqual(subscription);
        });

        it("persists no provider secret key in plain text", async () => {
          const storage = await factory();
          const provider = yooKassaSettings();
          const project = sampleProject({ provider });
          await unwrap(storage.saveProject(project));
          expect(await serializedStorage(storage)).not.toContain(provider.secretKey);
          expect(await unwrap(storage.findProject(project.id))).toEqual(project);
        });
      }
    });

    it("answers the health check", async () => {
      const storage = await factory();
      expect((await storage.checkHealth()).isOk()).toBe(true);
    });

    describeKeyLookupContract(factory);
    describeProjectDeletionContract(factory);
    describeIdempotencyContract(factory, options);
    describeCreateOnceContract(factory, options);
    describeLifecycleContract(factory);
    describeSavedMethodContract(factory, options);
    describeOutboxContract(factory, options);
    describeWebhookEndpointContract(factory, options);
    describeEventLogContract(factory);
    describePaymentContract(factory);
    describeRefundContract(factory);
    describeCountContract(factory);
  });
}
