/**
 * Resolves in the event loop's check phase (`setImmediate`), after every callback of the current
 * turn: every request read in this turn that core could answer without waiting for I/O (all of them
 * on memory storage) has been answered by then. The API's answers wait for it, so that under load
 * core answers many requests back to back and their answers are written together afterwards,
 * instead of each request's work running between two socket writes that leave the CPU caches cold.
 * Pinned, creating invoices (docs/performance.md): 7,016 → 11,258 requests a second, 142 → 88 µs of
 * CPU per request. A lone request waits one turn of an otherwise idle loop: microseconds.
 *
 * One promise per turn, shared by every request that waits in it; they resume in the order they came.
 * The log's lines wait for it too (`startup/turn-batched-stdout.ts`).
 */
let turnEnd: Promise<void> | null = null;

export function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnd = null;
      resolve();
    }),
  );
  return turnEnd;
}
