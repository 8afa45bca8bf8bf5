// @kopek/storage-memory — Kopek's storage port held in process memory.

export type { InspectableStorage } from "@kopek/core";
export { createMemoryStorage, type MemoryStorageOptions } from "./memory-storage.js";
