import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "examples/*", "bench"],
    // In CI the run also writes a JSON report, which .ci/run turns into one plain summary line.
    reporters: process.env.CI
      ? ["default", ["json", { outputFile: ".tmp/vitest-report.json" }]]
      : ["default"],
  },
});
