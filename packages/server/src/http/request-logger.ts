import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions } from "pino";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type Level = (typeof LEVELS)[number];

/**
 * Each request's `request.log`, made only when something logs through it. Fastify builds a pino child
 * per request by default (its bindings serialised, its prototype chain set up): a measurable part of
 * every request, for a logger that a request which ends well never uses (its one line is written by
 * request-log.ts). This one holds the parent and the bindings, and builds that same child on first
 * use, so every line it writes still carries the request id.
 */
export class LazyRequestLogger {
  #child: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The request's pino child, built on first use. */
  resolve(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.resolve().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.resolve().child(bindings, options);
  }

  // Methods, not per-instance closures, which would cost what this class saves.
  fatal(...args: unknown[]): void {
    this.#write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#write("error", args);
  }
  warn(...args: unknown[]): void {
    this.#write("warn", args);
  }
  info(...args: unknown[]): void {
    this.#write("info", args);
  }
  debug(...args: unknown[]): void {
    this.#write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#write("trace", args);
  }
  silent(...args: unknown[]): void {
    this.#write("silent", args);
  }

  #write(level: Level, args: unknown[]): void {
    const logger = this.resolve();
    (logger[level] as (...parameters: unknown[]) => void).apply(logger, args);
  }
}

/** Fastify's `childLoggerFactory`: a `LazyRequestLogger` instead of an eager pino child. */
export function lazyRequestLoggers(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Its methods take what pino's do; pino's overloads are not restated here.
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
