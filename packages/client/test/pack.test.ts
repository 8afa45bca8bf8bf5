import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

it("pnpm pack builds first (prepack) and ships dist and the README, with no dev-source export", async () => {
  const out = await mkdtemp(join(tmpdir(), "kopek-client-pack-"));
  try {
    await run("pnpm", ["pack", "--pack-destination", out], { cwd: PACKAGE, timeout: 150_000 });
    const tarball = join(out, "kopek-client-0.1.0.tgz");
    const { stdout: files } = await run("tar", ["-tzf", tarball]);
    expect(files.split("\n").filter(Boolean).sort()).toEqual(
      expect.arrayContaining(["package/README.md", "package/dist/index.d.ts", "package/dist/index.js"]),
    );
    expect(files).not.toContain("package/src/");
    const { stdout: manifest } = await run("tar", ["-xzOf", tarball, "package/package.json"]);
    const { exports } = JSON.parse(manifest) as { exports: Record<string, Record<string, string>> };
    expect(exports).toEqual({ ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } });
    expect(JSON.stringify(exports)).not.toContain("dev-source");
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}, 180_000);
