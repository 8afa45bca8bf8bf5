import { type Clock, type PaymentProvider, type Project, systemClock } from "@kopek/core";
import {
  createSandboxCheckout,
  createSandboxLedger,
  type SandboxCheckout,
  type SandboxLedger,
} from "@kopek/provider-sandbox";
import { err, ok, type Result } from "neverthrow";
import type { Logger } from "pino";
import { createKopekMetrics, type KopekMetrics } from "../metrics/kopek-metrics.js";
import type { Config } from "./config.js";
import { createLogger } from "./logger.js";
import { createProviderRegistry } from "./providers.js";
import { createFileClock } from "./test-clock.js";

/** What `kopek serve` and `kopek worker` both run on, besides storage. */
export interface Services {
  readonly logger: Logger;
  readonly clock: Clock;
  readonly providerFor: (project: Project) => PaymentProvider;
  /** The sandbox's checkout page over the same books as its providers. */
  readonly sandboxCheckout: SandboxCheckout;
  /** The process's Prometheus series: provider calls are counted here, the rest where they happen. */
  readonly metrics: KopekMetrics;
}

/** The logger, the clock (the wall clock, or the test clock file) and the payment providers. */
export function openServices(config: Config): Result<Services, string> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const clock = openClock(config);
  if (clock.isErr()) return err(clock.error);
  const ledger = openLedger(config);
  if (ledger.isErr()) return err(ledger.error);
  if (config.testClockFile !== null) logger.warn({ file: config.testClockFile }, "using the test clock file");
  const metrics = createKopekMetrics(clock.value);
  const providerFor = createProviderRegistry({
    ledger: ledger.value,
    sandboxLatencyMs: config.sandboxLatencyMs,
    clock: clock.value,
    metrics,
  });
  return ok({
    logger,
    clock: clock.value,
    providerFor,
    metrics,
    sandboxCheckout: createSandboxCheckout(ledger.value),
  });
}

function openClock(config: Config): Result<Clock, string> {
  if (config.testClockFile === null) return ok(systemClock);
  try {
    return ok(createFileClock(config.testClockFile));
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    return err(`KOPEK_TEST_CLOCK_FILE ${config.testClockFile} cannot be used (${reason})`);
  }
}

/** The sandbox's books: in memory, or in KOPEK_SANDBOX_LEDGER_FILE (a testing aid). */
function openLedger(config: Config): Result<SandboxLedger, string> {
  if (config.sandboxLedgerFile === null) return ok(createSandboxLedger());
  try {
    return ok(createSandboxLedger({ file: config.sandboxLedgerFile }));
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    return err(`KOPEK_SANDBOX_LEDGER_FILE ${config.sandboxLedgerFile} cannot be used (${reason})`);
  }
}
