import { afterEach, expect } from "vitest";
import { takeSpecViolations } from "./emulator.js";

// Each test fails on any request the adapter sent, or answer or notification the emulator made, that
// T-Bank's OpenAPI document ([T], test/spec) does not describe (test/spec-check.ts).
afterEach(() => {
  expect(takeSpecViolations()).toEqual([]);
});
