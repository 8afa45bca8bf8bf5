/** Past this, shutdown gives up on in-flight work: well inside the 5 s orchestrators allow. */
export const SHUTDOWN_DEADLINE_MS = 4500;

/** A running `kopek serve` or `kopek worker`, as far as shutting it down goes. */
export interface Closable {
  readonly log: {
    info(object: object, message?: string): void;
    info(message: string): void;
    warn(object: object, message?: string): void;
    error(object: object, message?: string): void;
    /** Writes out lines still pending (pino's asynchronous destination), then calls back. */
    flush?(callback: (error?: Error) => void): void;
  };
  close(): Promise<void>;
}

/**
 * SIGTERM and SIGINT: stop accepting, let in-flight requests and renewals finish, stop timers, close
 * storage, exit 0. Work still running at the deadline, or a second signal, ends the process with 1.
 */
export function closeOnSignals(running: Closable, exitNow: (code: number) => void = process.exit): void {
  const { log } = running;
  // The log goes out asynchronously: flush it first, or the last lines could be lost or reordered.
  const exit = (code: number) => (log.flush === undefined ? exitNow(code) : log.flush(() => exitNow(code)));
  let closing = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, "second signal: exiting without waiting");
      exit(1);
      return;
    }
    closing = true;
    log.info({ signal }, "shutting down: finishing in-flight work");
    const deadline = setTimeout(() => {
      log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, "in-flight work did not finish in time");
      exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    running.close().then(
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
