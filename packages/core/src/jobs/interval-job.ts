/** A job run every so often, never twice at once: webhook delivery, invoice expiry, renewals. */
export interface IntervalJob {
  /** Runs `runOnce` every `intervalMs` until `stop`. */
  start(intervalMs: number): void;
  /** Stops the timer and waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * `run` every `intervalMs` once started: the first run at once, each next one `intervalMs` after the
 * previous ended. A timed run that throws goes to `onError`; one that ends well calls `onSuccess` (a
 * worker's heartbeat, for the operator's metrics).
 */
export function startIntervalJob<R>(
  run: () => Promise<R>,
  onError: (cause: unknown) => void,
  onSuccess: () => void = () => {},
): IntervalJob & { runOnce(): Promise<R> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<R> | undefined;
  const runOnce = () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    runOnce,
    start(intervalMs) {
      if (timer !== undefined) return;
      const tick = () => {
        runOnce()
          .then(() => onSuccess(), onError)
          .finally(() => {
            if (timer !== undefined) timer = setTimeout(tick, intervalMs).unref();
          });
      };
      timer = setTimeout(tick, 0).unref();
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
