import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // storage-postgres's own suite runs twice: as is, and on a schema partitioned by project_id.
    projects: ["packages/*", "packages/storage-postgres/vitest.partitioned.config.ts", "examples/*", "bench"],
    // In CI the run also writes a JSON report, which .ci/run turns into one plain summary line.
    reporters: process.env.CI
      ? ["default", ["json", { outputFile: ".tmp/vitest-report.json" }]]
      : ["default"],
  },
});
