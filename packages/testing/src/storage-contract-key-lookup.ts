import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addLiveKey, type StorageFactory, savedProject, unwrap } from "./storage-contract-support.js";

/**
 * What the operator's key commands rely on (`kopek keys revoke|rotate|create|list`): keys found by
 * id or hash prefix across projects, and a project's existence, without reading a project's settings.
 */
export function describeKeyLookupContract(factory: StorageFactory): void {
  describe("the operator's key lookup", () => {
    it("finds a key of any project by its id, its whole SHA-256 or a prefix of it, revoked ones too", async () => {
      const storage = await factory();
      const key = await addLiveKey(storage, (await savedProject(storage)).id);
      const other = await addLiveKey(storage, (await savedProject(storage)).id);
      const revokedAt = new Date("2025-07-07T07:07:07.007Z");
      await unwrap(storage.revokeApiKey(other.sha256, revokedAt));
      expect(await unwrap(storage.findApiKeys({ id: key.id }))).toEqual([key]);
      expect(await unwrap(storage.findApiKeys({ id: other.id }))).toEqual([{ ...other, revokedAt }]);
      expect(await unwrap(storage.findApiKeys({ sha256Prefix: key.sha256 }))).toEqual([key]);
      expect(await unwrap(storage.findApiKeys({ sha256Prefix: key.sha256.slice(0, 16) }))).toEqual([key]);
      expect(await unwrap(storage.findApiKeys({ id: randomUUID() }))).toEqual([]);
      expect(await unwrap(storage.findApiKeys({ id: "not-a-uuid" }))).toEqual([]);
      expect(await unwrap(storage.findApiKeys({ sha256Prefix: randomBytes(32).toString("hex") }))).toEqual(
        [],
      );
    });

    it("finds every key whose hash starts with a prefix, oldest first, whatever their projects", async () => {
      const storage = await factory();
      const prefix = randomBytes(10).toString("hex");
      const keyOf = async (createdAt: string) => {
        const project = await savedProject(storage);
        const sha256 = `${prefix}${randomBytes(22).toString("hex")}`;
        const key = {
          id: randomUUID(),
          projectId: project.id,
          sha256,
          createdAt: new Date(createdAt),
          revokedAt: null,
        };
        await unwrap(storage.addApiKey(key));
        return key;
      };
      const newer = await keyOf("2025-08-08T08:08:08.002Z");
      const older = await keyOf("2025-08-08T08:08:08.001Z");
      expect(await unwrap(storage.findApiKeys({ sha256Prefix: prefix }))).toEqual([older, newer]);
    });

    it("keeps a key revoked ahead of now working until then; revoking it now ends it at once, never later", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      const key = await addLiveKey(storage, project.id);
      const inAnHour = new Date(Date.now() + 3_600_000);
      expect(await unwrap(storage.revokeApiKey(key.sha256, inAnHour))).toBe(true);
      expect((await unwrap(storage.findProjectByKeyHash(key.sha256)))?.keyId).toBe(key.id);
      expect(await unwrap(storage.findApiKeys({ id: key.id }))).toEqual([{ ...key, revokedAt: inAnHour }]);
      // A later time never postpones it; an earlier one brings it forward.
      await unwrap(storage.revokeApiKey(key.sha256, new Date(Date.now() + 7_200_000)));
      expect(await unwrap(storage.findApiKeys({ id: key.id }))).toEqual([{ ...key, revokedAt: inAnHour }]);
      const now = new Date(Date.now() - 1000);
      await unwrap(storage.revokeApiKey(key.sha256, now));
      expect(await unwrap(storage.findProjectByKeyHash(key.sha256))).toBeNull();
      expect(await unwrap(storage.findApiKeys({ id: key.id }))).toEqual([{ ...key, revokedAt: now }]);
    });

    it("says whether a project exists", async () => {
      const storage = await factory();
      const project = await savedProject(storage);
      expect(await unwrap(storage.projectExists(project.id))).toBe(true);
      expect(await unwrap(storage.projectExists(randomUUID()))).toBe(false);
      expect(await unwrap(storage.projectExists("not-a-uuid"))).toBe(false);
    });
  });
}
