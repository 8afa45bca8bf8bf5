import { execFile } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SERVER = dirname(fileURLToPath(new URL("../package.json", import.meta.url)));
/** What an operator runs: the `kopek` bin of @kopek/server (`pnpm kopek`). */
export const BUILT_CLI = join(SERVER, "dist", "cli.js");
const LOCK = join(ROOT, ".tmp", "as-shipped-build.lock");

/** @kopek/server and every workspace package it imports at run time: what dist/cli.js loads. */
function packagesOfTheCli(): string[] {
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const [name, version] of Object.entries(manifest.dependencies ?? {}))
      if (version.startsWith("workspace:")) visit(join(ROOT, "packages", name.replace("@kopek/", "")));
  };
  visit(SERVER);
  return [...seen];
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith(".test.ts") ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** A package whose dist is missing, or older than its sources or build configuration. */
function isStale(dir: string): boolean {
  let built: number;
  try {
    built = Math.min(
      ...["index.js", ...(dir === SERVER ? ["cli.js"] : [])].map(
        (f) => statSync(join(dir, "dist", f)).mtimeMs,
      ),
    );
  } catch {
    return true;
  }
  const sources = [
    join(dir, "src"),
    join(dir, "package.json"),
    join(dir, "tsup.config.ts"),
    join(ROOT, "tsup.config.base.ts"),
  ];
  return Math.max(...sources.map(newestMtime)) > built;
}

/** Takes the lock file (its holder's pid inside); a lock whose holder died is taken over. */
async function withLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  for (;;) {
    try {
      const fd = openSync(LOCK, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch {
      const holder = Number(readFileSync(LOCK, { encoding: "utf8", flag: "a+" }));
      let alive = false;
      try {
        alive = holder > 0 && process.kill(holder, 0);
      } catch {}
      if (!alive) rmSync(LOCK, { force: true });
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/**
 * Builds what `kopek` needs when a fresh clone has no dist, or a source changed since `pnpm build`:
 * each stale package's own tsup configuration, JavaScript only (the declarations do nothing at run time
 * and are `pnpm build`'s; existing ones are kept). One build at a time across test workers (a lock file);
 * a worker that waited finds the packages fresh and builds nothing. Resolves with what was built and how long it took.
 */
export async function ensureBuiltCli(): Promise<{ built: string[]; ms: number }> {
  const started = performance.now();
  const built = await withLock(async () => {
    const stale = packagesOfTheCli().filter(isStale);
    for (const dir of stale) {
      await promisify(execFile)(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          "await (await import('tsup')).build({ dts: false, clean: false, silent: true })",
        ],
        { cwd: dir },
      );
    }
    return stale.map((dir) => dir.slice(ROOT.length));
  });
  return { built, ms: Math.round(performance.now() - started) };
}
