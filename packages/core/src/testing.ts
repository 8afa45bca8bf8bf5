// @kopek/core/testing — the contract suites every adapter runs (vitest is a peer dependency here).

export { describeProviderContract, type ProviderContractOptions } from "./testing/provider-contract.js";
export { describeStorageContract, type StorageContractOptions } from "./testing/storage-contract.js";
export { sampleInvoice, sampleProject, sampleSubscription } from "./testing/fixtures.js";
