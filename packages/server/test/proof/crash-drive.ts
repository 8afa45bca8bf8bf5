import { setTimeout as sleep } from "node:timers/promises";
import { type ServerProcess, startServerProcess } from "../server-process.js";
import { type DriveFigures, type DrivenRequest, driveCreates } from "./create-driver.js";

/**
 * Drives `requests` at a server process started with `env` (each retried with its key until
 * answered) while SIGKILLing it `crashes` times at random moments spread over the run, restarting it
 * each time. Answers the figures, how many crashes were made, and the server still running.
 */
export async function driveWithCrashes(options: {
  readonly env: Record<string, string>;
  readonly apiKey: string;
  readonly requests: readonly DrivenRequest[];
  readonly crashes: number;
  readonly concurrency: number;
  readonly server?: ServerProcess;
  /** Told of every server process started, so a caller can stop the latest whatever happens. */
  readonly onServer?: (server: ServerProcess) => void;
}): Promise<DriveFigures & { readonly crashes: number; readonly server: ServerProcess }> {
  const { env, requests } = options;
  let server = options.server ?? (await startServerProcess(env));
  options.onServer?.(server);
  let url: string | null = server.url;
  // Crash i comes at a random point of the i-th slice of the run, so crashes spread over all of it.
  const crashPoints = Array.from({ length: options.crashes }, (_, i) =>
    Math.floor(((i + 0.2 + Math.random() * 0.6) / options.crashes) * requests.length * 0.9),
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
  const drive = await driveCreates({
    requests,
    concurrency: options.concurrency,
    apiKey: options.apiKey,
    url: () => url,
    onProgress: (acknowledged) => {
      if (crashing || crashes >= options.crashes || acknowledged < (crashPoints[crashes] ?? Infinity)) return;
      crashing = true;
      // A little after the threshold, at a moment no request chose.
      restarting = sleep(Math.random() * 50)
        .then(crash)
        .finally(() => {
          crashing = false;
        });
    },
  });
  await restarting;
  return { ...drive, crashes, server };
}
