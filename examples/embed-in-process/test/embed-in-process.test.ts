import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);

it("runs Kopek in-process from the public exports and prints each outcome", async () => {
  const cwd = fileURLToPath(new URL("..", import.meta.url));
  const { stdout } = await run(process.execPath, ["--conditions=dev-source", "--import", "tsx", "index.ts"], {
    cwd,
  });
  expect(stdout.trim().split("\n")).toEqual([
    "subscription: 201 active",
    "subscription replay: 200 active",
    "invoice: 201 created",
    "subscription without stored-method charges: 422 method_unavailable",
  ]);
});
