import { describeStorageContract } from "@kopek/testing";
import { createMemoryStorage } from "../src/index.js";

describeStorageContract("memory", () => createMemoryStorage());
