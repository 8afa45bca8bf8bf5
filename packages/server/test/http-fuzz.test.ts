import { expect, test } from "vitest";
import { describeFigures, runHttpFuzz } from "./fuzz/http-fuzz.js";
import { writeFigures } from "./test-artifacts.js";

// 1,000 adversarial requests over real HTTP in CI; `pnpm fuzz --runs 100000` runs the same property longer.
const RUNS = Number(process.env.KOPEK_FUZZ_RUNS ?? 1000);

test(`fuzz over HTTP: ${RUNS} adversarial requests, never a 5xx, always a well-formed problem`, {
  timeout: 300_000,
}, async () => {
  const figures = await runHttpFuzz({ runs: RUNS });
  console.info(describeFigures(figures));
  writeFigures("fuzz", figures);
  expect(figures.serverErrors).toBe(0);
});
