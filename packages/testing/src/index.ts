// @kopek/testing — the contract suites every adapter runs (vitest and fast-check are peer dependencies).

export {
  AWKWARD_CHARACTERS,
  awkwardJsonArb,
  awkwardTextArb,
  deeplyNestedArb,
  longTextArb,
} from "./awkward-text.js";
export {
  cardNumberArb,
  cardSeparatorArb,
  luhnCheckDigit,
  writtenCardNumberArb,
} from "./card-numbers.js";
export {
  sampleInvoice,
  samplePayment,
  sampleProject,
  sampleReceipt,
  sampleRefund,
  sampleSubscription,
  sampleWebhookEndpoint,
} from "./fixtures.js";
export { describeKopekContract } from "./kopek-contract.js";
export {
  type ChargeFault,
  type CountingProvider,
  createHarness,
  type KopekContractOptions,
  type KopekHarness,
  manualClock,
} from "./kopek-harness.js";
export { describeProviderContract, type ProviderContractOptions } from "./provider-contract.js";
export { type ScriptedMethodSaves, scriptedMethodSaves } from "./scripted-method-saves.js";
export { describeStorageContract, type StorageContractOptions } from "./storage-contract.js";
export { type JsonPath, type StringPlace, spliceString, stringPlaces } from "./string-paths.js";
