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

/** The entry points a package's dist has: index, and the server's main and cli. */
function entries(dir: string): string[] {
  return ["index", ...(dir === SERVER ? ["main", "cli"] : [])];
}

/**
 * A package whose built files (`.js`, or `.d.ts`: `suffix`) are missing, or older than its sources or
 * build configuration.
 */
function isStale(dir: string, suffix = ".js"): boolean {
  let built: number;
  try {
    built = Math.min(...entries(dir).map((f) => statSync(join(dir, "dist", f + suffix)).mtimeMs));
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
  return ensureBuiltJavaScript(packagesOfTheCli());
}

/** Each stale package of `dirs` built, JavaScript only, under the lock: ensureBuiltCli's build. */
async function ensureBuiltJavaScript(dirs: string[]): Promise<{ built: string[]; ms: number }> {
  const started = performance.now();
  const built = await withLock(async () => {
    const stale = dirs.filter((dir) => isStale(dir));
    for (const dir of stale) await tsup(dir, "{ dts: false, clean: false, silent: true }");
    return stale.map((dir) => dir.slice(ROOT.length));
  });
  return { built, ms: Math.round(performance.now() - started) };
}

/** One package's tsup build, its own configuration with `options` over it. */
async function tsup(dir: string, options: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", `await (await import('tsup')).build(${options})`],
    { cwd: dir },
  );
}

/**
 * What `pnpm pack` ships of each package of `dirs` (packed-packages.test.ts), built when stale as
 * ensureBuiltCli builds: the JavaScript under the lock, then the declarations alone (`dts.only`, outside
 * the lock: no other test reads them, and the JavaScript other tests may be running is not rewritten).
 */
export async function ensureBuiltPackages(dirs: string[]): Promise<{ built: string[]; ms: number }> {
  const started = performance.now();
  const { built } = await ensureBuiltJavaScript(dirs);
  const stale = dirs.filter((dir) => isStale(dir, ".d.ts"));
  await Promise.all(stale.map((dir) => tsup(dir, "{ dts: { only: true }, clean: false, silent: true }")));
  const all = new Set([...built, ...stale.map((dir) => dir.slice(ROOT.length))]);
  return { built: [...all], ms: Math.round(performance.now() - started) };
}
