import { describe, expect, it } from "vitest";
import { startIntervalJob } from "./interval-job.js";

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return check();
};

describe("startIntervalJob", () => {
  it("calls onSuccess after each timed run that ends well and onError for one that throws, never both", async () => {
    const outcomes: string[] = [];
    let runs = 0;
    const job = startIntervalJob(
      async () => {
        runs += 1;
        if (runs === 2) throw new Error("second run fails");
        return runs;
      },
      (cause) => outcomes.push(`error: ${(cause as Error).message}`),
      () => outcomes.push("ok"),
    );
    job.start(1);
    expect(await until(() => outcomes.length >= 3)).toBe(true);
    await job.stop();
    expect(outcomes.slice(0, 3)).toEqual(["ok", "error: second run fails", "ok"]);
  });

  it("a run asked for directly (runOnce) is no heartbeat: only timed runs are", async () => {
    let beats = 0;
    const job = startIntervalJob(
      async () => 1,
      () => {},
      () => (beats += 1),
    );
    expect(await job.runOnce()).toBe(1);
    expect(beats).toBe(0);
  });
});
