import type { components } from "./schema.generated.js";

/** The problem document (RFC 9457) every Kopek error answers with. */
export type KopekProblem = components["schemas"]["Problem"];

/**
 * A non-2xx answer to a resource method (`kopek.invoices.create(…)` and the rest). `problem` is the
 * answer's problem document, or undefined when the body was not one (a proxy's HTML page, say).
 */
export class KopekApiError extends Error {
  override readonly name = "KopekApiError";
  /** The HTTP status. */
  readonly status: number;
  /** The problem document the server answered with. */
  readonly problem: KopekProblem | undefined;
  /** The answer's headers (`X-Request-Id`, `Retry-After`, …). */
  readonly headers: Headers;
  /** The server's id for the request: quote it when asking about one in the server's log. */
  readonly requestId: string | undefined;

  constructor(status: number, problem: KopekProblem | undefined, headers: Headers) {
    super(
      problem === undefined
        ? `@kopek/client: the server answered ${status}`
        : `@kopek/client: ${status} ${problem.code}: ${problem.detail}`,
    );
    this.status = status;
    this.problem = problem;
    this.headers = headers;
    this.requestId = headers.get("x-request-id") ?? problem?.requestId;
  }

  /** The stable machine-readable value to switch on (`validation_failed`, `not_found`, …). */
  get code(): KopekProblem["code"] | undefined {
    return this.problem?.code;
  }

  /** The human-readable explanation. */
  get detail(): string | undefined {
    return this.problem?.detail;
  }

  /** One entry per invalid field, on `validation_failed` only. */
  get errors(): KopekProblem["errors"] {
    return this.problem?.errors;
  }
}

/** The problem document in an answer, if its body is one. */
export async function readProblem(response: Response): Promise<KopekProblem | undefined> {
  const text = await response.text().catch(() => "");
  try {
    const body: unknown = JSON.parse(text);
    const looksLikeProblem =
      typeof body === "object" && body !== null && typeof (body as { code?: unknown }).code === "string";
    return looksLikeProblem ? (body as KopekProblem) : undefined;
  } catch {
    return undefined;
  }
}
