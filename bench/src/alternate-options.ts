// The options of `pnpm bench:alternate` (alternate.ts).
import { resolve } from "node:path";
import type { LoadClient } from "./load.js";

export const ALTERNATE_USAGE = `usage: pnpm bench:alternate [--duration <s>] [--rounds <n>] [--replay] [--client <c>] <side>...

  <side>          bare (bare Fastify) or <label>=<checkout> (a built Kopek checkout: its
                  packages/server/dist/cli.js serves); each round runs every side once, in order
  --duration <s>  seconds of load per run, after 2 s of warm-up (default 6)
  --rounds <n>    rounds (default 3)
  --replay        one Idempotency-Key for every request (the replay) instead of a new one each
  --client <c>    the load generator: wrk (default) or closed-loop (bench/src/closed-loop-client.c,
                  built with cc; its latency figures agree with a capture of the loopback, wrk's tail
                  does not: docs/performance.md, "The create's tail on the wire")
`;

export interface Side {
  readonly label: string;
  /** null: bare Fastify. */
  readonly root: string | null;
}

export interface AlternateOptions {
  readonly durationSeconds: number;
  readonly rounds: number;
  readonly replay: boolean;
  readonly client: LoadClient;
  readonly sides: readonly Side[];
}

/** The command line's options; throws with the reason on anything it does not take. */
export function parseAlternateOptions(args: readonly string[]): AlternateOptions {
  let durationSeconds = 6;
  let rounds = 3;
  let replay = false;
  let client: LoadClient = "wrk";
  const sides: Side[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--replay") replay = true;
    else if (arg === "--client") {
      const value = args[++i];
      if (value !== "wrk" && value !== "closed-loop") throw new Error("--client is wrk or closed-loop");
      client = value;
    } else if (arg === "--duration" || arg === "--rounds") {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a positive integer`);
      if (arg === "--duration") durationSeconds = value;
      else rounds = value;
    } else if (arg === "bare") sides.push({ label: "bare", root: null });
    else {
      const at = arg.indexOf("=");
      if (arg.startsWith("-") || at <= 0 || at === arg.length - 1)
        throw new Error(`not an option or a side: "${arg}"`);
      sides.push({ label: arg.slice(0, at), root: resolve(arg.slice(at + 1)) });
    }
  }
  if (sides.length === 0) throw new Error("name at least one side");
  if (new Set(sides.map((side) => side.label)).size !== sides.length) throw new Error("labels must differ");
  return { durationSeconds, rounds, replay, client, sides };
}
