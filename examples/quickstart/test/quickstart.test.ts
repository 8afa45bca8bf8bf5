import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);

it("quickstart.sh gets 201, 200 (replayed), 201, 422, then 200 for read, list and cancel from a real kopek serve, which then exits 0", async () => {
  const runner = fileURLToPath(new URL("../run.mjs", import.meta.url));
  const { stdout } = await run(process.execPath, [runner], { timeout: 55_000 });
  expect(stdout).toMatch(/^==> create subscription: HTTP 201$/m);
  expect(stdout).toMatch(/^==> replay subscription: HTTP 200$/m);
  expect(stdout).toMatch(/^idempotent-replayed: true$/m);
  expect(stdout).toMatch(/^==> create invoice: HTTP 201$/m);
  expect(stdout).toMatch(/^==> validation error: HTTP 422$/m);
  expect(stdout).toContain("quickstart: every call answered as expected");
});
