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
 *
 * Call it before the start begins, with the start's promise (null when the start failed: the caller
 * reports that and exits): a signal that arrives while the server is still starting — even in the
 * moment after "kopek listening" is logged — is then held until it can shut down, never left to
 * Node's default, which kills the process with no exit code.
 */
export function closeOnSignals(
  starting: Promise<Closable | null>,
  exitNow: (code: number) => void = process.exit,
): void {
  let closing = false;
  let started: Closable | null = null;
  // A start that throws is the caller's to report (its own await rethrows it); here it is no server.
  const settled = starting.catch(() => null);
  // The log goes out asynchronously: flush it first, or the last lines could be lost or reordered.
  const exit = (code: number) => {
    const flush = started?.log.flush;
    if (flush === undefined) exitNow(code);
    else flush.call(started?.log, () => exitNow(code));
  };
  const shutDown = (running: Closable, signal: NodeJS.Signals) => {
    const { log } = running;
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
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      started?.log.warn({ signal }, "second signal: exiting without waiting");
      exit(1);
      return;
    }
    closing = true;
    void settled.then((running) => {
      // A failed start is reported by the caller, which then ends the process itself.
      if (running !== null) shutDown(running, signal);
    });
  };
  void settled.then((running) => {
    started = running;
  });
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
