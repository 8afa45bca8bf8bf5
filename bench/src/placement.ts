import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { ensureWrk } from "./wrk.js";

/**
 * Where the HTTP scenarios' servers and load generator run. Measured fairly, the server has a CPU
 * core of its own (core 0) and the load generator, wrk (a C program, far cheaper per request than a
 * Node one), the other (core 1): then the server's CPU per request is Kopek's cost, not the load
 * generator's, and req/s is bound by the server alone.
 */
export interface Placement {
  /** The server's core, or null: not pinned. */
  readonly serverCore: number | null;
  /** wrk and its core (null: not pinned), or null: autocannon in the bench's own process. */
  readonly wrk: { readonly core: number | null } | null;
  /** One line for the notes and the JSON. */
  readonly description: string;
  /** Why the figures are not measured the fair way, or null when they are. */
  readonly warning: string | null;
}

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-c", "0", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Pinned wrk when it can be had; else autocannon, with a warning. The smoke always uses autocannon. */
export function choosePlacement(smoke: boolean, log: (line: string) => void): Placement {
  if (smoke)
    return {
      serverCore: null,
      wrk: null,
      description: "smoke: autocannon, in the bench's process, nothing pinned",
      warning: null,
    };
  const pin = availableParallelism() >= 2 && hasTaskset();
  const serverCore = pin ? 0 : null;
  const unpinned = pin ? null : "fewer than 2 cores or no taskset: server and load share the cores";
  const missing = ensureWrk(log);
  if (missing !== null) {
    const warning = `${missing}: falling back to autocannon in the bench's own process, which competes with the server for CPU; these ratios are lower than a pinned wrk's and not comparable to them`;
    log(`WARNING: ${warning}`);
    return {
      serverCore,
      wrk: null,
      description: `autocannon (fallback), server ${pin ? "on core 0" : "not pinned"}`,
      warning: unpinned === null ? warning : `${warning}; ${unpinned}`,
    };
  }
  return {
    serverCore,
    wrk: { core: pin ? 1 : null },
    description: pin ? "wrk -t1 -c50 on core 1, server on core 0 (taskset)" : "wrk -t1 -c50, not pinned",
    warning: unpinned,
  };
}
