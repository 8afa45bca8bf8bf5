/**
 * Resolves in the event loop's check phase (`setImmediate`), after every callback of the current
 * turn. The API's requests wait for it before core sees them: under load Node and Fastify first read
 * every request that arrived in the turn, then core answers them back to back (on memory storage
 * without waiting for I/O), and their answers are written together as each is done — instead of each
 * request's core work running between Node's parsing and socket writes of the others, which leaves
 * the CPU caches cold for all of them. Pinned, creating invoices (docs/performance-log.md): writing
 * the answers at the end of the turn took 7,016 → 11,258 requests a second (142 → 88 µs of CPU per
 * request); waiting before core instead, 0.54 → 0.70 of bare Fastify's throughput on a slower host.
 * Without the wait a create is answered 0.09 ms after it is read instead of ~3 ms, but the server
 * manages ~8,000 creates a second instead of ~13,000 (docs/performance.md, fourteenth session).
 * A lone request waits one turn of an otherwise idle loop: microseconds.
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
