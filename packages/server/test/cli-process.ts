import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BUILT_CLI } from "./built-cli.js";
import { appendLog, newLogFile } from "./test-artifacts.js";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout, waiting for it to be printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * Runs the kopek command from source (tsx, `dev-source` packages), as `pnpm kopek` would run the build.
 * `asShipped`: the built `dist/cli.js` (built-cli.ts) in `cwd`, with `env` alone: every setting not
 * named there is at its default, the development opt-ins included.
 */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string> = {},
  asShipped?: { readonly cwd: string },
): CliProcess {
  const child =
    asShipped === undefined
      ? spawn(process.execPath, ["--conditions=dev-source", "--import", "tsx", CLI, ...args], {
          cwd: ROOT,
          // Tests run webhook receivers and provider emulators on this machine: the development opt-ins.
          env: {
            PATH: process.env.PATH ?? "",
            LOG_LEVEL: "info",
            KOPEK_WEBHOOKS_ALLOW_LOCAL: "on",
            KOPEK_PROVIDERS_ALLOW_LOCAL: "on",
            ...env,
          },
        })
      : spawn(process.execPath, [BUILT_CLI, ...args], {
          cwd: asShipped.cwd,
          env: { PATH: process.env.PATH ?? "", ...env },
        });
  let out = "";
  let err = "";
  // For the secret scan: every log line (stdout's JSON lines) and all of stderr. Other stdout text is
  // what a command shows its user on purpose, e.g. the key `keys create` prints once.
  const logFile = newLogFile(`kopek-${args.join("-")}`);
  let partial = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    const logLines = lines.filter((line) => line.startsWith("{"));
    if (logLines.length > 0) appendLog(logFile, `${logLines.join("\n")}\n`);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    appendLog(logFile, chunk.toString());
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 15_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = out.match(pattern);
        if (match === null) return false;
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve(match);
        return true;
      };
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`)),
        timeoutMs,
      );
      if (!check()) child.stdout.on("data", check);
    });
  return { child, stdout: () => out, stderr: () => err, waitFor, exited };
}
