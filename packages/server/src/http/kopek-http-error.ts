import type { KopekError } from "@kopek/core";

/**
 * A Kopek error raised inside a Fastify hook or parser. Thrown rather than sent on the spot so that
 * every problem document leaves through the one error handler (error-boundary.ts).
 */
export class KopekHttpError extends Error {
  constructor(readonly kopekError: KopekError) {
    super(kopekError.code);
    this.name = "KopekHttpError";
  }
}
