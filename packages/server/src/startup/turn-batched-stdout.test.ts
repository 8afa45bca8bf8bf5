import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { batchByTurn } from "./turn-batched-stdout.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("batchByTurn", () => {
  it("writes a turn's lines once, together and in order, when the turn ends", async () => {
    const writes: string[] = [];
    const batched = batchByTurn({ write: (text) => writes.push(text) });
    batched.write("a\n");
    batched.write("b\n");
    await Promise.resolve();
    batched.write("c\n");
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["a\nb\nc\n"]);
    batched.write("d\n");
    await nextTurn();
    expect(writes).toEqual(["a\nb\nc\n", "d\n"]);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it("writes out at once on flush, then calls back", () => {
    const writes: string[] = [];
    const batched = batchByTurn({ write: (text) => writes.push(text) });
    batched.write("a\n");
    let called = false;
    batched.flush(() => {
      called = true;
    });
    expect(writes).toEqual(["a\n"]);
    expect(called).toBe(true);
  });
});

describe("turnBatchedStdout", () => {
  it("writes every line, in order, through the logger, even those of the turn the process exits in", () => {
    const script = `
      import { createLogger } from "./src/startup/logger.ts";
      const log = createLogger({ level: "info" });
      for (let i = 0; i < 3; i++) log.info({ i }, "first turn");
      setImmediate(() => {
        log.info({ i: 3 }, "second turn");
        process.exit(0);
      });
    `;
    const run = spawnSync(
      process.execPath,
      ["--conditions=dev-source", "--import", "tsx", "--input-type=module", "-e", script],
      {
        cwd: new URL("../..", import.meta.url),
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.i, line.msg])).toEqual([
      [0, "first turn"],
      [1, "first turn"],
      [2, "first turn"],
      [3, "second turn"],
    ]);
  });
});
