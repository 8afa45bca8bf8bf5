import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The packages the server (and the in-process scenario) load from their built `dist`. */
const BUILT = ["core", "storage-memory", "storage-postgres", "provider-sandbox", "server"];

function newestMtime(directory: string, accept: (name: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !accept(entry.name)) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Why the build is out of date, or null when every package's dist is newer than its sources. */
function staleReason(root: string): string | null {
  for (const name of BUILT) {
    const dist = join(root, "packages", name, "dist");
    if (!existsSync(join(dist, "index.js"))) return `packages/${name}/dist is missing`;
    const built = statSync(join(dist, "index.js")).mtimeMs;
    const sources = newestMtime(join(root, "packages", name, "src"), (file) => file.endsWith(".ts"));
    if (sources > built) return `packages/${name}/src is newer than its dist`;
  }
  return null;
}

/** Runs `pnpm build` when a dist is missing or older than its sources: the bench measures what ships. */
export function ensureBuilt(root: string, log: (line: string) => void): void {
  const reason = staleReason(root);
  if (reason === null) return;
  log(`building first (${reason}): pnpm build`);
  const build = spawnSync("pnpm", ["build"], { cwd: root, encoding: "utf8" });
  if (build.status !== 0)
    throw new Error(`pnpm build failed (exit ${build.status}):\n${build.stdout}${build.stderr}`.trimEnd());
}
