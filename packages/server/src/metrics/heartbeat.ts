/** A background job as core builds them: one run on demand, or runs on a timer until stopped. */
export interface RunnableJob<R> {
  runOnce(): Promise<R>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

/**
 * The job run on its own timer here rather than core's, so each run that ends without an error calls
 * `beat` (the worker heartbeat gauge); a run that throws goes to `onError`, as core's timer does. The
 * same schedule: the first run at once, the next `intervalMs` after the previous one ended, never two
 * at once (`runOnce` shares a run in progress). `stop` clears the timer and waits for the run.
 */
export function withHeartbeat<R>(
  job: RunnableJob<R>,
  beat: () => void,
  onError: (cause: unknown) => void,
): RunnableJob<R> {
  let timer: NodeJS.Timeout | undefined;
  return {
    runOnce: () => job.runOnce(),
    start(intervalMs) {
      if (timer !== undefined) return;
      const tick = () => {
        job
          .runOnce()
          .then(beat, onError)
          .finally(() => {
            if (timer !== undefined) timer = setTimeout(tick, intervalMs).unref();
          });
      };
      timer = setTimeout(tick, 0).unref();
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await job.stop();
    },
  };
}
