// @kopek/core/testing — the contract suites every adapter runs (vitest is a peer dependency here).

export {
  AWKWARD_CHARACTERS,
  awkwardJsonArb,
  awkwardTextArb,
  deeplyNestedArb,
  longTextArb,
} from "./testing/awkward-text.js";
export {
  cardNumberArb,
  cardSeparatorArb,
  luhnCheckDigit,
  writtenCardNumberArb,
} from "./testing/card-numbers.js";
export {
  sampleInvoice,
  samplePayment,
  sampleProject,
  sampleReceipt,
  sampleRefund,
  sampleSubscription,
} from "./testing/fixtures.js";
export { describeKopekContract } from "./testing/kopek-contract.js";
export {
  type ChargeFault,
  type CountingProvider,
  createHarness,
  type KopekContractOptions,
  type KopekHarness,
  manualClock,
} from "./testing/kopek-harness.js";
export { describeProviderContract, type ProviderContractOptions } from "./testing/provider-contract.js";
export { describeStorageContract, type StorageContractOptions } from "./testing/storage-contract.js";
export { type JsonPath, type StringPlace, spliceString, stringPlaces } from "./testing/string-paths.js";
