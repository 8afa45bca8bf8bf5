#!/usr/bin/env node
// Runs quickstart.sh against a real server, as CI does: generates an API key with `kopek keys
// generate`, starts `kopek serve` with a projects file holding only the key's SHA-256, runs the
// script with bash, checks each call's status, then stops the server with SIGTERM (it must exit 0).
// Uses the built server (packages/server/dist) when there is one, else its source through tsx.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const serverDir = join(here, "../../packages/server");
const builtCli = join(serverDir, "dist/cli.js");
const kopekCommand = existsSync(builtCli)
  ? [builtCli]
  : ["--conditions=dev-source", "--import", "tsx", join(serverDir, "src/cli.ts")];

const EXPECTED = [
  ["create subscription", "201"],
  ["replay subscription", "200"],
  ["create invoice", "201"],
  ["validation error", "422"],
  ["read subscription", "200"],
  ["list invoices", "200"],
  ["cancel subscription", "200"],
];

/** Runs a command to its end; resolves with its exit code and output. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: here, stdio: ["ignore", "pipe", "pipe"], ...options });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `kopek serve` and resolves once it logs where it listens. */
function startServer(env) {
  const child = spawn(process.execPath, [...kopekCommand, "serve"], {
    cwd: here,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start within 30 s")), 30_000);
    exited.then(({ code }) => reject(new Error(`the server exited with ${code} before listening`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return; // not a log line
      }
      if (entry.msg === "kopek listening") {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
  });
  return { child, exited, listening };
}

/** Runs quickstart.sh against the server and checks every call's status. */
async function runScript(url, apiKey) {
  const script = await run("bash", [join(here, "quickstart.sh")], {
    env: { ...process.env, KOPEK_URL: url, KOPEK_API_KEY: apiKey },
  });
  process.stdout.write(script.stdout);
  process.stderr.write(script.stderr);
  if (script.code !== 0) throw new Error(`quickstart.sh exited with ${script.code}`);

  const seen = [...script.stdout.matchAll(/^==> (.+): HTTP (\d{3})$/gm)].map((match) => [match[1], match[2]]);
  if (JSON.stringify(seen) !== JSON.stringify(EXPECTED)) {
    throw new Error(`unexpected statuses: ${JSON.stringify(seen)}, wanted ${JSON.stringify(EXPECTED)}`);
  }
  if (!/^idempotent-replayed: true$/im.test(script.stdout))
    throw new Error("the replay was not marked Idempotent-Replayed");
  if (script.stdout.includes(apiKey)) throw new Error("the API key was printed");
}

async function main() {
  const generated = await run(process.execPath, [...kopekCommand, "keys", "generate"]);
  const apiKey = /^key:\s+(\S+)$/m.exec(generated.stdout)?.[1];
  const sha256 = /^sha256:\s+([0-9a-f]{64})$/m.exec(generated.stdout)?.[1];
  if (generated.code !== 0 || apiKey === undefined || sha256 === undefined) {
    throw new Error(`kopek keys generate failed:\n${generated.stdout}${generated.stderr}`);
  }

  const dir = await mkdtemp(join(tmpdir(), "kopek-quickstart-"));
  const projectsFile = join(dir, "projects.json");
  const project = {
    id: crypto.randomUUID(),
    name: "quickstart",
    provider: { kind: "sandbox", storedMethodCharge: true },
    apiKeys: [{ sha256 }],
  };
  await writeFile(projectsFile, JSON.stringify({ projects: [project] }));

  const server = startServer({
    ...process.env,
    HOST: "127.0.0.1",
    PORT: "0",
    KOPEK_PROJECTS_FILE: projectsFile,
    KOPEK_WORKER: "off",
    LOG_LEVEL: "info",
  });
  let stopped;
  try {
    await runScript(await server.listening, apiKey);
  } finally {
    server.child.kill("SIGTERM");
    stopped = await server.exited;
    await rm(dir, { recursive: true, force: true });
  }
  if (stopped.code !== 0) {
    throw new Error(`the server did not exit 0 on SIGTERM (code ${stopped.code}, signal ${stopped.signal})`);
  }
  console.log("quickstart: every call answered as expected");
}

main().catch((error) => {
  console.error(`quickstart: ${error.message}`);
  process.exitCode = 1;
});
