import { defineConfig } from "vitest/config";

/**
 * The proof suite (docs/reliability.md): crash and database-fault tests and the failover proof (a
 * Patroni cluster), run by `pnpm proof` after the main suite, one file at a time, because they kill
 * servers and restart PostgreSQL. `pnpm proof:failover` runs the failover proof alone.
 */
const failover = process.env.KOPEK_PROOF_FAILOVER === "1";
export default defineConfig({
  resolve: { conditions: ["dev-source"] },
  ssr: { resolve: { conditions: ["dev-source"] } },
  test: {
    name: "proof",
    include: failover
      ? ["packages/server/test/proof/failover.proof.ts"]
      : ["packages/server/test/proof/**/*.proof.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 300_000,
  },
});
