import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateApiKey, hashApiKey } from "@kopek/core";
import { type Child, freePort, startChild, waitUntilReady } from "./children.js";

export interface Server {
  readonly name: "kopek" | "baseline";
  readonly url: string;
  readonly child: Child;
}

/** The project and key every Kopek server in this bench run serves (written as a projects file). */
export interface BenchProject {
  readonly id: string;
  readonly apiKey: string;
  readonly keyHash: string;
  readonly file: string;
}

export function createBenchProject(workDir: string): BenchProject {
  const id = randomUUID();
  const apiKey = generateApiKey();
  const keyHash = hashApiKey(apiKey);
  const file = join(workDir, "projects.json");
  const project = { id, name: "bench", provider: { kind: "sandbox" }, apiKeys: [{ sha256: keyHash }] };
  writeFileSync(file, JSON.stringify({ projects: [project] }));
  return { id, apiKey, keyHash, file };
}

// Only what a server needs: an inherited DATABASE_URL or LOG_LEVEL must not change what is measured.
const LOG_LEVEL = "info";

/**
 * Another `pnpm build` on this machine empties the dists for a few seconds; a server started then
 * cannot find its modules. That is retried (three times, 3 s apart); any other failure is not.
 */
async function start(
  name: Server["name"],
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  workDir: string,
  core: number | null,
  nodeArgs: readonly string[] = [],
): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(name, script, args, env, workDir, core, nodeArgs);
    } catch (cause) {
      if (attempt >= 3 || !/ERR_MODULE_NOT_FOUND/.test(String(cause))) throw cause;
      process.stderr.write(`bench: ${name} could not load its modules (a concurrent build?), retrying\n`);
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

async function startOnce(
  name: Server["name"],
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  workDir: string,
  core: number | null,
  nodeArgs: readonly string[],
): Promise<Server> {
  const port = await freePort();
  // taskset execs node, so the child's pid is the server's (its /proc figures are the server's).
  const node = [process.execPath, ...nodeArgs, script, ...args];
  const [command, ...commandArgs] = core === null ? node : ["taskset", "-c", String(core), ...node];
  const child = startChild(
    command as string,
    commandArgs,
    { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL, PORT: String(port), ...env },
    join(workDir, `${name}-${port}.stderr`),
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}/healthz`, child);
  } catch (cause) {
    await child.stop();
    throw cause;
  }
  return { name, url, child };
}

/**
 * The reference server as shipped (`dist/cli.js serve`), rate limiting off so it can be measured; on
 * CPU core `core` alone when it is a number; `nodeArgs` go to node (e.g. `--cpu-prof`).
 */
export function startKopek(
  root: string,
  project: BenchProject,
  workDir: string,
  extraEnv: Record<string, string> = {},
  core: number | null = null,
  nodeArgs: readonly string[] = [],
): Promise<Server> {
  return start(
    "kopek",
    join(root, "packages/server/dist/cli.js"),
    ["serve"],
    {
      HOST: "127.0.0.1",
      KOPEK_PROJECTS_FILE: project.file,
      KOPEK_RATE_LIMIT: "0",
      KOPEK_RATE_LIMIT_UNAUTHENTICATED: "0",
      KOPEK_RATE_LIMIT_PUBLIC: "0",
      ...extraEnv,
    },
    workDir,
    core,
    nodeArgs,
  );
}

/**
 * Bare Fastify 5: parse the body, answer 201 with a fixed ~700-byte JSON. `workMicros` adds that much
 * CPU work to every request (the headroom scenario only).
 */
export function startBaseline(
  root: string,
  workDir: string,
  workMicros = 0,
  core: number | null = null,
  nodeArgs: readonly string[] = [],
): Promise<Server> {
  const env = workMicros > 0 ? { BASELINE_WORK_US: String(workMicros) } : {};
  return start("baseline", join(root, "bench/src/baseline-server.mjs"), [], env, workDir, core, nodeArgs);
}
