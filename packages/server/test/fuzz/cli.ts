// `pnpm fuzz [--runs N] [--seed S]`: the CI fuzz property (test/http-fuzz.test.ts) with more cases.
import { parseArgs } from "node:util";
import { writeFigures } from "../test-artifacts.js";
import { describeFigures, runHttpFuzz } from "./http-fuzz.js";

const { values } = parseArgs({ options: { runs: { type: "string" }, seed: { type: "string" } } });
const runs = Number(values.runs ?? 10_000);
if (!Number.isInteger(runs) || runs < 1) {
  console.error("pnpm fuzz: --runs must be a whole number of at least 1");
  process.exit(2);
}
try {
  const figures = await runHttpFuzz({
    runs,
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
  });
  console.info(describeFigures(figures));
  writeFigures("fuzz-long", figures);
  process.exit(figures.serverErrors === 0 ? 0 : 1);
} catch (cause) {
  console.error(`pnpm fuzz: FAILED: ${(cause as Error).message}`);
  process.exit(1);
}
