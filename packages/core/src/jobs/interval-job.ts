/** A job run every so often, never twice at once: webhook delivery, invoice expiry, renewals. */
export interface IntervalJob {
  /** Runs `runOnce` every `intervalMs` until `stop`. */
  start(intervalMs: number): void;
  /** Stops the timer and waits for the run in progress. */
  stop(): Promise<void>;
}

export function startIntervalJob<R>(
  run: () => Promise<R>,
  onError: (cause: unknown) => void,
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
          .catch(onError)
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
