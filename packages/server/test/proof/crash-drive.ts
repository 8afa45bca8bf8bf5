import { setTimeout as sleep } from "node:timers/promises";
import { type ServerProcess, startServerProcess } from "../server-process.js";
import { type DriveFigures, type DrivenRequest, driveCreates } from "./create-driver.js";

/** A server process that a workload SIGKILLs and restarts as it progresses. */
export interface CrashingServer {
  /** Where the server is now; null while it is down. */
  url(): string | null;
  /** Tells how many units of the workload are done: crash i comes once the i-th threshold is passed. */
  progress(done: number): void;
  /** Resolves once a crash under way has restarted the server. */
  settled(): Promise<void>;
  crashes(): number;
  server(): ServerProcess;
}

/**
 * A server process started with `env` (or `server`, running) that is SIGKILLed `crashes` times at
 * random moments spread over a workload of `total` units, and restarted each time.
 */
export async function crashingServer(options: {
  readonly env: Record<string, string>;
  readonly crashes: number;
  readonly total: number;
  readonly server?: ServerProcess;
  /** Told of every server process started, so a caller can stop the latest whatever happens. */
  readonly onServer?: (server: ServerProcess) => void;
}): Promise<CrashingServer> {
  const { env } = options;
  let server = options.server ?? (await startServerProcess(env));
  options.onServer?.(server);
  let url: string | null = server.url;
  // Crash i comes at a random point of the i-th slice of the run, so crashes spread over all of it.
  const crashPoints = Array.from({ length: options.crashes }, (_, i) =>
    Math.floor(((i + 0.2 + Math.random() * 0.6) / options.crashes) * options.total * 0.9),
  );
  let crashes = 0;
  let restarting: Promise<void> = Promise.resolve();
  let crashing = false;
  const crash = async () => {
    url = null;
    await server.kill(); // SIGKILL: requests in flight, charges half-made, leases held
    crashes += 1;
    server = await startServerProcess(env);
    options.onServer?.(server);
    url = server.url;
  };
  return {
    url: () => url,
    progress(done) {
      if (crashing || crashes >= options.crashes || done < (crashPoints[crashes] ?? Infinity)) return;
      crashing = true;
      // A little after the threshold, at a moment no request chose.
      restarting = sleep(Math.random() * 50)
        .then(crash)
        .finally(() => {
          crashing = false;
        });
    },
    settled: () => restarting,
    crashes: () => crashes,
    server: () => server,
  };
}

/**
 * Drives `requests` (each retried with its key until answered) at a `crashingServer`. Answers the
 * figures, how many crashes were made, and the server still running.
 */
export async function driveWithCrashes(options: {
  readonly env: Record<string, string>;
  readonly apiKey: string;
  readonly requests: readonly DrivenRequest[];
  readonly crashes: number;
  readonly concurrency: number;
  readonly server?: ServerProcess;
  readonly onServer?: (server: ServerProcess) => void;
}): Promise<DriveFigures & { readonly crashes: number; readonly server: ServerProcess }> {
  const target = await crashingServer({ ...options, total: options.requests.length });
  const drive = await driveCreates({
    requests: options.requests,
    concurrency: options.concurrency,
    apiKey: options.apiKey,
    url: target.url,
    onProgress: target.progress,
  });
  await target.settled();
  return { ...drive, crashes: target.crashes(), server: target.server() };
}
