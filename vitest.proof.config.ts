import { defineConfig } from "vitest/config";

/**
 * The proof suite (docs/reliability.md): crash and database-fault tests, run by `pnpm proof` after the
 * main suite, one file at a time, because they kill servers and restart PostgreSQL. The failover proof
 * (a Patroni cluster) runs only with `pnpm proof:failover`: in one run of ten its worker died after a
 * failover (fixed since), so it is not yet a CI gate (docs/reliability.md, "Failover").
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
    exclude: failover ? [] : ["packages/server/test/proof/failover.proof.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 300_000,
  },
});
