/** A job run now and then on a timer, never twice at once (the dispatcher, the invoice sweeper). */
export interface DispatchTimer {
  /** Runs `runOnce` every `intervalMs` until `stop`. */
  start(intervalMs: number): void;
  /** Stops the timer and waits for the run in progress. */
  stop(): Promise<void>;
}

export function startTimer<R>(
  run: () => Promise<R>,
  onError: (cause: unknown) => void,
): DispatchTimer & { runOnce(): Promise<R> } {
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
