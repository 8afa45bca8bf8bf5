import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateApiKey, generateWebhookSecret, isWebhookSecret, isWellFormedApiKey } from "@kopek/core";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltPackages } from "./built-cli.js";

// Issue 42 part 4, "installable": what `pnpm publish` would ship. Every public package is packed with
// `pnpm pack` from its built dist (built here when stale, as the as-shipped tests do), each tarball's
// files, manifest, source maps and text are checked, and then all the tarballs are installed with npm
// into an empty project, where @kopek/core's and @kopek/client's README examples run and type-check.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const PACKAGES = join(ROOT, "packages");

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  keywords?: string[];
  license?: string;
  repository?: { type: string; url: string; directory: string };
  engines?: { node?: string };
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  files?: string[];
  scripts?: Record<string, string>;
  exports: Record<string, Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  publishConfig?: Record<string, unknown>;
}

const readManifest = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Manifest;
const ROOT_MANIFEST = readManifest(join(ROOT, "package.json"));
/** Every package under packages/ that is not private: all of them are published. */
const PUBLIC = readdirSync(PACKAGES)
  .map((dir) => ({ dir, manifest: readManifest(join(PACKAGES, dir, "package.json")) }))
  .filter(({ manifest }) => manifest.private !== true);
const VERSIONS = new Map(PUBLIC.map(({ manifest }) => [manifest.name, manifest.version]));

/** What a tarball may hold besides its manifest, README, LICENSE and dist/: the bin and the migrations. */
const EXTRA_FILES: Record<string, RegExp> = {
  server: /^bin\/kopek\.js$/,
  "storage-postgres": /^migrations\/\d{4}_[a-z0-9_]+\.sql$/,
};
const PACKED_FILE = /^(package\.json|README\.md|LICENSE|dist\/[a-z0-9-]+\.(js|js\.map|d\.ts))$/i;

/** The exports a consumer gets: the workspace's, without `dev-source` and the source-only subpaths. */
function publishedExports(exports: Manifest["exports"]): Manifest["exports"] {
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([, conditions]) => "import" in conditions)
      .map(([path, { "dev-source": _, ...conditions }]) => [path, conditions]),
  );
}

/** What looks like a secret in a text: API keys (valid checksum), webhook secrets, PEM blocks, provider keys. */
function secretsIn(text: string): string[] {
  const found: string[] = [];
  for (const [match] of text.matchAll(/kopek_[0-9A-Za-z]{38}/g))
    if (isWellFormedApiKey(match)) found.push("a Kopek API key");
  for (const [match] of text.matchAll(/whsec_[A-Za-z0-9+/]{20,}={0,2}/g))
    if (isWebhookSecret(match)) found.push("a webhook signing secret");
  if (/-----BEGIN [A-Z0-9 ]*-----/.test(text)) found.push("a PEM block");
  if (/\b(?:live|test)_[A-Za-z0-9_-]{40,}/.test(text)) found.push("a YooKassa-shaped secret key");
  return found;
}

/** The first ```ts block of a package's README: its example. */
function readmeExample(dir: string): string {
  const readme = readFileSync(join(PACKAGES, dir, "README.md"), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error(`packages/${dir}/README.md has no ts example`);
  return block;
}

const toModule = (source: string) =>
  ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;

let work = "";
/** Each public package's tarball, its file list and its extracted directory, by packages/ dir. */
const packed = new Map<string, { tarball: string; files: string[]; extracted: string }>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "kopek-packed-"));
  const built = await ensureBuiltPackages(PUBLIC.map(({ dir }) => join(PACKAGES, dir)));
  if (built.built.length > 0) console.log(`built ${built.built.join(", ")} in ${built.ms} ms`);
  const tarballs = join(work, "tarballs");
  // `prepack` (a full tsup build, which empties dist first) is for `pnpm publish`; here the dist the
  // other tests may be running stays as it is.
  await run(
    "pnpm",
    [
      "-r",
      "--filter",
      "./packages/**",
      "pack",
      "--pack-destination",
      tarballs,
      "--config.ignore-scripts=true",
    ],
    { cwd: ROOT, timeout: 120_000 },
  );
  for (const { dir, manifest } of PUBLIC) {
    const tarball = join(tarballs, `${manifest.name.slice(1).replace("/", "-")}-${manifest.version}.tgz`);
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout
      .split("\n")
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, ""));
    const extracted = join(work, "extracted", dir);
    mkdirSync(extracted, { recursive: true });
    await run("tar", ["-xzf", tarball, "-C", extracted, "--strip-components=1"]);
    packed.set(dir, { tarball, files, extracted });
  }
}, 600_000);

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("the published packages", () => {
  it("are every package under packages/, each with its line and install command in the README", () => {
    expect(PUBLIC.map(({ dir }) => dir).sort()).toEqual(readdirSync(PACKAGES).sort());
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const { dir, manifest } of PUBLIC) {
      expect(readme).toContain(`| [\`${manifest.name}\`](packages/${dir}) `);
      expect(readme).toContain(`\`npm install ${dir === "testing" ? "-D " : ""}${manifest.name}\``);
    }
  });

  it("declare what a registry and provenance need, and the supported Node lines", () => {
    const { url } = PUBLIC[0]?.manifest.repository ?? { url: "" };
    expect(url).toMatch(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    expect(ROOT_MANIFEST.engines?.node).toBe("^22.12.0 || >=24");
    for (const { dir, manifest } of PUBLIC) {
      const { exports, publishConfig } = manifest;
      expect(manifest.name).toBe(`@kopek/${dir}`);
      expect(manifest).toMatchObject({
        license: "MIT",
        repository: { type: "git", url, directory: `packages/${dir}` },
        engines: ROOT_MANIFEST.engines,
        main: "./dist/index.js",
        types: "./dist/index.d.ts",
        scripts: { prepack: "tsup" },
      });
      expect(manifest.description?.length).toBeGreaterThan(20);
      expect(manifest.keywords).toContain("kopek");
      expect(manifest.files).toContain("dist");
      expect(publishConfig).toEqual({
        access: "public",
        provenance: true,
        exports: publishedExports(exports),
      });
      for (const [path, conditions] of Object.entries(exports))
        if ("import" in conditions)
          expect(conditions, `${manifest.name} ${path}`).toMatchObject({ default: conditions.import });
    }
  });

  it("pack only dist, README, LICENSE and package.json (the server's bin, PostgreSQL's migrations)", () => {
    for (const { dir } of PUBLIC) {
      const { files } = packed.get(dir) ?? { files: [] };
      const extra = EXTRA_FILES[dir] ?? /^$/;
      expect(files, dir).toEqual(
        expect.arrayContaining(["package.json", "README.md", "LICENSE", "dist/index.js"]),
      );
      expect(
        files.filter((file) => !PACKED_FILE.test(file) && !extra.test(file)),
        dir,
      ).toEqual([]);
      expect(
        files.filter((file) => /\.(test|spec)\.|(^|\/)(test|tests|src)\/|\.env|\.tsbuildinfo$/.test(file)),
        dir,
      ).toEqual([]);
    }
  });

  it("pack a manifest with versions for workspace:, and exports, types and bin that are all packed", () => {
    for (const { dir, manifest: source } of PUBLIC) {
      const { files, extracted } = packed.get(dir) ?? { files: [], extracted: "" };
      const manifest = readManifest(join(extracted, "package.json"));
      expect(JSON.stringify(manifest), dir).not.toContain("workspace:");
      for (const deps of [manifest.dependencies, manifest.peerDependencies])
        for (const [name, range] of Object.entries(deps ?? {}))
          if (name.startsWith("@kopek/")) expect(range, `${dir} → ${name}`).toBe(`^${VERSIONS.get(name)}`);
      expect(manifest.exports).toEqual(publishedExports(source.exports));
      expect(manifest.publishConfig).toEqual({ access: "public", provenance: true });
      const targets = [
        manifest.main,
        manifest.types,
        ...Object.values(manifest.bin ?? {}),
        ...Object.values(manifest.exports).flatMap((conditions) => Object.values(conditions)),
      ];
      for (const target of targets) expect(files, dir).toContain(posix.normalize(target ?? "missing"));
    }
  });

  it("pack source maps that stay inside their package and carry every source they name", () => {
    for (const { dir } of PUBLIC) {
      const { files, extracted } = packed.get(dir) ?? { files: [], extracted: "" };
      const maps = files.filter((file) => file.endsWith(".map"));
      expect(maps.length, dir).toBeGreaterThan(0);
      for (const map of maps) {
        const { sources, sourcesContent } = JSON.parse(readFileSync(join(extracted, map), "utf8")) as {
          sources: string[];
          sourcesContent?: (string | null)[];
        };
        for (const source of sources) expect(posix.join("dist", source), `${dir}/${map}`).toMatch(/^src\//);
        expect(sourcesContent?.length ?? 0, `${dir}/${map}`).toBe(sources.length);
        expect(sourcesContent?.every((content) => typeof content === "string") ?? true).toBe(true);
      }
    }
  });

  it("pack no secret: no API key, webhook secret, PEM block or provider key in any file", () => {
    // The scan itself finds each kind (a scan that cannot fail proves nothing).
    const pem = `-----BEGIN ${"PRIVATE KEY"}-----`;
    const planted = `${generateApiKey()} ${generateWebhookSecret()} ${pem} live_${"A".repeat(43)}`;
    expect(secretsIn(planted)).toHaveLength(4);
    for (const { dir } of PUBLIC) {
      const { files, extracted } = packed.get(dir) ?? { files: [], extracted: "" };
      for (const file of files)
        expect(secretsIn(readFileSync(join(extracted, file), "utf8")), `${dir}/${file}`).toEqual([]);
    }
  });

  it("install into an empty project with npm, where the README examples run and type-check", async ({
    skip,
  }) => {
    const ping = await run("npm", ["ping"], { timeout: 20_000 }).catch((error: Error) => error);
    if (ping instanceof Error) {
      const why = `the npm registry does not answer (${ping.message.split("\n")[0]})`;
      if (process.env.CI) throw new Error(`${why}: CI must install the packed packages`);
      console.warn(`skipped: ${why}`);
      skip(why);
    }
    const project = join(work, "consumer");
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    const started = performance.now();
    const tarballs = PUBLIC.map(({ dir }) => packed.get(dir)?.tarball ?? dir);
    await run(
      "npm",
      ["install", ...tarballs, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      {
        cwd: project,
        timeout: 240_000,
      },
    );
    console.log(`npm install of ${tarballs.length} tarballs: ${Math.round(performance.now() - started)} ms`);
    const node = (args: string[]) => run(process.execPath, args, { cwd: project, timeout: 120_000 });

    // @kopek/core's README example, as written: an in-memory Kopek creates an invoice.
    const coreExample = readmeExample("core");
    writeFileSync(join(project, "core-example.ts"), coreExample);
    writeFileSync(join(project, "core-example.mjs"), toModule(coreExample));
    // @kopek/client's README example against @kopek/server's handler, both as installed; only its
    // base URL is the server's real one.
    const clientExample = readmeExample("client");
    expect(clientExample).toContain('"http://127.0.0.1:3000"');
    writeFileSync(join(project, "client-example.ts"), clientExample);
    writeFileSync(
      join(project, "client-example.mjs"),
      toModule(clientExample.replace('"http://127.0.0.1:3000"', "process.env.KOPEK_URL")),
    );
    writeFileSync(join(project, "serve-client-example.mjs"), SERVE_CLIENT_EXAMPLE);
    // Both examples type-check against the packed declarations, as a consumer's TypeScript reads them.
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(CONSUMER_TSCONFIG));
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    // CommonJS callers too: `require(esm)`, through the exports' `default` condition.
    const required = JSON.stringify(PUBLIC.map(({ manifest }) => manifest.name));
    const requireAll = `for (const name of ${required}) require(name); console.log("ok")`;

    const [core, client, checked, bin, loaded] = await Promise.all([
      node(["core-example.mjs"]),
      node(["serve-client-example.mjs"]),
      node([tsc, "-p", "."]).catch((error: { stdout: string }) => error),
      run(join(project, "node_modules", ".bin", "kopek"), ["--version"]),
      node(["-e", requireAll]),
    ]);
    expect(core.stdout).toMatch(/^201 created https:\/\/pay\.example\.com\/pay\/[0-9a-f-]+\/[0-9a-f-]+\n$/);
    expect(client.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/[0-9a-f-]+\/[0-9a-f-]+\n$/);
    expect(checked.stdout).toBe("");
    expect(bin.stdout).toBe("kopek 0.1.0\n");
    expect(loaded.stdout).toBe("ok\n");
  }, 300_000);
});

/**
 * What the consumer's TypeScript checks the examples with: Node's ESM resolution, strict, and (as `tsc
 * --init` sets it) skipLibCheck: missing declarations still fail, at the import, and checking every
 * declaration file of zod and Node would triple the time.
 */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    lib: ["es2023"],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    typeRoots: [join(ROOT, "node_modules", "@types")],
  },
  files: ["core-example.ts", "client-example.ts"],
};

/** Serves an in-memory Kopek with @kopek/server's handler, then runs the client's README example on it. */
const SERVE_CLIENT_EXAMPLE = `
import { once } from "node:events";
import { createServer } from "node:http";
import { createKopek } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createKopekHandler, createProjectWithKey } from "@kopek/server";
import { createMemoryStorage } from "@kopek/storage-memory";

let handler;
const server = createServer((request, response) => handler.handle(request, response));
server.listen(0, "127.0.0.1");
await once(server, "listening");
const url = "http://127.0.0.1:" + server.address().port;
const storage = createMemoryStorage();
const provider = createSandboxProvider();
const kopek = createKopek({ storage, providerFor: () => provider, publicUrl: url });
handler = await createKopekHandler({ kopek, storage, publicUrl: url });
const created = await createProjectWithKey(storage, { name: "shop", provider: { kind: "sandbox" } });
if (created.isErr()) throw new Error(created.error.message);
process.env.KOPEK_URL = url;
process.env.KOPEK_API_KEY = created.value.apiKey;
try {
  await import("./client-example.mjs");
} finally {
  await handler.close();
  server.close();
}
`;
