import type { ProviderError } from "@kopek/core";
import type { Result } from "neverthrow";
import { err } from "neverthrow";

/** What the sandbox answers, as real providers do, when an idempotency key comes back with other parameters. */
export const KEY_REUSED: ProviderError = {
  code: "failed",
  message: "idempotency key reused with other parameters",
};

/** The first outcome seen for a provider-side idempotency key, and the parameters it was given. */
export interface RememberedOutcome<T> {
  readonly parameters: string;
  readonly outcome: Result<T, ProviderError>;
}

/**
 * Replays the outcome remembered under `key`, or decides and remembers a new one. Synchronous on
 * purpose: parallel calls with one key cannot both decide, because nothing awaits in between.
 * A key reused with other parameters is refused, as real providers do.
 */
export function rememberOutcome<T>(
  memory: Map<string, RememberedOutcome<T>>,
  key: string,
  parameters: string,
  decide: () => Result<T, ProviderError>,
): Result<T, ProviderError> {
  const remembered = memory.get(key);
  if (remembered === undefined) {
    const outcome = decide();
    memory.set(key, { parameters, outcome });
    return outcome;
  }
  if (remembered.parameters !== parameters) {
    return err(KEY_REUSED);
  }
  return remembered.outcome;
}
