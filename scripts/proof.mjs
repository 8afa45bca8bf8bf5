// `pnpm proof [--long]`: the crash and database-fault tests (vitest.proof.config.ts), which kill
// servers and restart PostgreSQL, so they run alone, after the main suite. --long: a few thousand
// requests and more faults instead of the CI scale. Figures land in .tmp/figures/.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const long = args.includes("--long");
const rest = args.filter((arg) => arg !== "--long");
const result = spawnSync("pnpm", ["exec", "vitest", "run", "--config", "vitest.proof.config.ts", ...rest], {
  stdio: "inherit",
  env: { ...process.env, ...(long ? { KOPEK_PROOF_LONG: "1" } : {}) },
});
process.exit(result.status ?? 1);
