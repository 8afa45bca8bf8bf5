import { type ChildProcess, spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Every process the bench starts is a child of this one, tracked here, and killed on exit, on a
 * signal and on a crash, so a failed run never leaves a server holding a port or a core.
 */
const running = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

process.on("exit", killAllChildren);

/** Adds a process started elsewhere (pgbench) to the ones killed with the bench. */
export function trackChild(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
}

export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** What it wrote to stderr (kept in a file, read on demand). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after `graceMs` (a second by default). */
  stop(graceMs?: number): Promise<void>;
}

/** Starts a process with stdout discarded and stderr kept in `stderrFile`. */
export function startChild(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stderrFile: string,
): Child {
  const child = spawn(command, args, {
    env,
    stdio: ["ignore", openSync("/dev/null", "w"), openSync(stderrFile, "w")],
  });
  if (child.pid === undefined) throw new Error(`cannot start ${command}`);
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    pid: child.pid,
    process: child,
    exited,
    stderr: () => readFileSync(stderrFile, "utf8"),
    async stop(graceMs = 1000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port nobody listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; fails early with the child's stderr when it exits first. */
export async function waitUntilReady(url: string, child: Child, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server exited before it was ready: ${child.stderr().trim()}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs / 1000} s: ${child.stderr().trim()}`);
}

const TICKS_PER_SECOND = 100; // USER_HZ: /proc reports CPU time in these on every Linux we run on

/** User + system CPU time the process used so far, in microseconds (/proc/<pid>/stat). */
export function cpuMicros(pid: number): number {
  const stat = readProc(pid, "stat");
  if (stat === null) return Number.NaN;
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}

/** Resident set size in bytes (/proc/<pid>/status VmRSS). */
export function rssBytes(pid: number): number {
  const status = readProc(pid, "status") ?? "";
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kib === undefined ? Number.NaN : Number(kib) * 1024;
}

/** A /proc file of the process, or null once it has exited. */
function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return null;
  }
}
