import type { Result } from "neverthrow";
import type { KopekError } from "./errors.js";
import { replayHeaders, replayStatus } from "./idempotency.js";
import type { StoredResponse } from "./ports/idempotency-storage.js";
import type { Outcome } from "./use-cases/execution.js";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The replay of a stored response: the same bytes, 201 shown as 200, marked as replayed. */
export function replay(stored: StoredResponse): StoredResponse {
  return { status: replayStatus(stored), headers: replayHeaders(stored), body: stored.body };
}

/** The response an outcome that reached the operation is answered, and stored, with. */
export function responseOf(
  respond: (error: KopekError, requestId: string) => StoredResponse,
  outcome: Result<Outcome, KopekError>,
  requestId: string,
): StoredResponse {
  if (outcome.isErr()) return respond(outcome.error, requestId);
  const headers: Record<string, string> = { "content-type": JSON_CONTENT_TYPE };
  if (outcome.value.location !== undefined) headers.location = outcome.value.location;
  return { status: outcome.value.status, headers, body: JSON.stringify(outcome.value.body) };
}
