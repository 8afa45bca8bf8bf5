import type { RunningServer } from "./main.js";

/** Past this, shutdown gives up on in-flight requests: well inside the 5 s orchestrators allow. */
export const SHUTDOWN_DEADLINE_MS = 4500;

/**
 * SIGTERM and SIGINT: stop accepting, let in-flight requests finish, stop timers, close storage, exit 0.
 * A request still running at the deadline, or a second signal, ends the process with 1 instead.
 */
export function closeOnSignals(server: RunningServer, exit: (code: number) => void = process.exit): void {
  const log = server.app.log;
  let closing = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, "second signal: exiting without waiting");
      exit(1);
      return;
    }
    closing = true;
    log.info({ signal }, "shutting down: finishing in-flight requests");
    const deadline = setTimeout(() => {
      log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, "in-flight requests did not finish in time");
      exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    server.close().then(
      () => {
        clearTimeout(deadline);
        log.info("stopped");
        exit(0);
      },
      (cause: unknown) => {
        log.error({ err: cause }, "shutdown failed");
        exit(1);
      },
    );
  };
  process.on("SIGTERM", shutDown);
  process.on("SIGINT", shutDown);
}
