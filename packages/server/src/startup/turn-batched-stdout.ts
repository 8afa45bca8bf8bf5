import { type DestinationStream, pino } from "pino";
import { endOfTurn } from "../http/end-of-turn.js";

export interface TurnBatched extends DestinationStream {
  /** Writes out the lines of the current turn now (pino's `logger.flush` calls it; so does shutdown). */
  flush(callback?: (error?: Error) => void): void;
}

/**
 * Lines written in one turn of the event loop go to `out` together, in one write at `endOfTurn()`
 * (the check phase, where the API's answers are written too), and in order. None waits past the turn
 * it was written in.
 */
export function batchByTurn(out: { write(text: string): unknown }): TurnBatched {
  let pending = "";
  const writeOut = () => {
    if (pending === "") return;
    const lines = pending;
    pending = "";
    out.write(lines);
  };
  return {
    write(line: string) {
      if (pending === "") endOfTurn().then(writeOut);
      pending += line;
    },
    flush(callback) {
      writeOut();
      callback?.();
    },
  };
}

let stdout: TurnBatched | null = null;

/**
 * The log's way to stdout: `batchByTurn` over a synchronous write, as the API's answers are written
 * at the end of the turn (`http/end-of-turn.ts`). Under load a turn serves many requests, each logging
 * a line; a system call per line cost ~13 µs of a create's ~115 µs of CPU on a host where they are
 * dear (docs/performance-log.md, "Logging"). An idle server's lines still go out at once; the last
 * turn's lines are written as the process exits. One per process, shared by every logger, so all
 * their lines stay in order.
 */
export function turnBatchedStdout(): TurnBatched {
  if (stdout !== null) return stdout;
  const batched = batchByTurn(pino.destination({ dest: 1, sync: true }));
  process.on("exit", () => batched.flush());
  stdout = batched;
  return batched;
}
