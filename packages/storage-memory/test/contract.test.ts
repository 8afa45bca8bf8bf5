import { describeStorageContract } from "@kopek/core/testing";
import { createMemoryStorage } from "../src/index.js";

describeStorageContract("memory", () => createMemoryStorage());
