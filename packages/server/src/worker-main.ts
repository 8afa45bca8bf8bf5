import { err, ok, type Result } from "neverthrow";
import type { Logger } from "pino";
import { startKopekBackground } from "./background.js";
import type { Config } from "./startup/config.js";
import { startIdempotencyPurge } from "./startup/idempotency-purge.js";
import { openServices } from "./startup/services.js";
import { openStorage } from "./startup/storage.js";

export interface RunningWorker {
  readonly log: Logger;
  /** Stops the worker, lets the renewals in flight finish and be saved, closes storage. */
  close(): Promise<void>;
}

/**
 * `kopek worker`: the renewal worker alone, no HTTP, on the database at DATABASE_URL. Any number of
 * them (and of servers with KOPEK_WORKER=on) may run on one database: storage leases every claim.
 */
export async function startWorker(config: Config): Promise<Result<RunningWorker, string>> {
  if (config.databaseUrl === null) {
    return err(
      "kopek worker needs DATABASE_URL: memory storage lives in one process, where kopek serve runs the worker",
    );
  }
  const services = openServices(config);
  if (services.isErr()) return err(services.error);
  const { logger, clock, providerFor } = services.value;
  const opened = await openStorage(config, logger);
  if (opened.isErr()) return err(opened.error);
  const { publicUrl } = config;
  const background = startKopekBackground({
    storage: opened.value.storage,
    providerFor,
    // Without KOPEK_PUBLIC_URL a worker cannot name the payer's way back: such attempts wait for the payer.
    ...(publicUrl === null ? {} : { publicUrl: () => publicUrl }),
    dunning: config.dunning,
    clock,
    intervalMs: config.workerIntervalMs,
    logger,
  });
  // Expired idempotency records are purged here too, so a deployment of workers alone keeps none.
  const purge = startIdempotencyPurge({ storage: opened.value.storage, clock, logger });
  // The jobs' timers never hold a process open (an embedding's must end when it does), and a worker
  // has nothing else: once its pool's connections were gone (an outage, a failover, or idle between
  // the ticks of a long interval) Node ended it with code 0. The worker runs until it is closed.
  const running = setInterval(() => {}, 2 ** 31 - 1);
  return ok({
    log: logger,
    close: async () => {
      clearInterval(running);
      purge.stop();
      await background.stop();
      await opened.value.close();
    },
  });
}
