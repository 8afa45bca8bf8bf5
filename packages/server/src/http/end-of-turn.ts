/**
 * Resolves in the event loop's check phase (`setImmediate`), after every callback of the current
 * turn: the log's lines wait for it (`startup/turn-batched-stdout.ts`), so a turn's lines are written
 * together. One promise per turn, shared by every wait in it; they resume in the order they came.
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

/**
 * How many waiting requests a turn that took on a new connection answers; the rest wait for the next
 * turn. See `turnToAnswer`.
 */
export const SHARE_WHILE_CONNECTING = 4;

const waiting: Array<() => void> = [];
let scheduled = false;
let connected = false;

/**
 * Resolves in the check phase (`setImmediate`) of this turn, or of a later one when this turn took on
 * a new connection (`connectionTaken`) and more requests wait than its share. The API's requests wait
 * for it before core sees them.
 *
 * Why at the end of the turn: under load Node and Fastify first read every request that arrived in
 * the turn, then core answers them back to back (on memory storage without waiting for I/O), and the
 * answers are written together — instead of each request's core work running between Node's parsing
 * and socket writes of the others, which leaves the CPU caches cold for all of them. Pinned, creating
 * invoices (docs/performance-log.md): 0.54 → 0.70 of bare Fastify's throughput. A lone request waits
 * one turn of an otherwise idle loop: microseconds.
 *
 * Why a share while connections arrive: Node 20's libuv takes on one new connection per turn of the
 * loop (libuv PR #3696), and each turn answers every request its connections sent, so when 50 clients
 * connect at once to a busy server the last waits ~50 turns, each longer than the one before (0.1–0.3
 * s for a create). A turn that took on a connection answers the oldest `SHARE_WHILE_CONNECTING`
 * waiting requests and leaves the rest to the next turn, which comes sooner and takes on the next
 * connection: the 50th first answer comes ~3× sooner (docs/performance.md, "Taking on new
 * connections"). Requests resume in the order they came, and a turn that took on no connection
 * resumes every request waiting.
 */
export function turnToAnswer(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/** Told of every connection the server takes on (`server.on("connection")`). */
export function connectionTaken(): void {
  connected = true;
  schedule();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(answerShare);
}

function answerShare() {
  scheduled = false;
  const share = connected ? Math.min(SHARE_WHILE_CONNECTING, waiting.length) : waiting.length;
  connected = false;
  const now = waiting.splice(0, share);
  // Queued in the check phase, so it runs in the next turn's, after that turn's poll.
  if (waiting.length > 0) schedule();
  for (const resume of now) resume();
}
