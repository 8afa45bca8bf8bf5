import { defineConfig } from "vitest/config";

/**
 * The proof suite (docs/reliability.md): crash and database-fault tests, run by `pnpm proof` after the
 * main suite, one file at a time, because they kill servers and restart PostgreSQL.
 */
export default defineConfig({
  resolve: { conditions: ["dev-source"] },
  ssr: { resolve: { conditions: ["dev-source"] } },
  test: {
    name: "proof",
    include: ["packages/server/test/proof/**/*.proof.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 300_000,
  },
});
