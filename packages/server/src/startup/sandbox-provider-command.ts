import { startProviderService } from "@kopek/provider-http";
import { createSandboxLedger, createSandboxProvider } from "@kopek/provider-sandbox";
import { err, ok, type Result } from "neverthrow";
import { createLogger } from "./logger.js";
import type { Closable } from "./shutdown.js";

export interface SandboxProviderOptions {
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  /** The ledger file: charges kept on disk, so provider-side idempotency survives restarts. */
  readonly ledger?: string | undefined;
  readonly latencyMs?: string | undefined;
  readonly storedMethodCharge?: string | undefined;
}

/**
 * `kopek sandbox-provider --port <p> [--ledger <file>]`: the sandbox as its own HTTP service, on the
 * provider protocol of @kopek/provider-http. It outlives any Kopek server that calls it, as a real
 * payment company does; projects reach it with `provider: { kind: "http", url }`.
 */
export async function startSandboxProvider(
  options: SandboxProviderOptions,
): Promise<Result<Closable, string>> {
  const port = Number(options.port ?? "4010");
  if (!/^[0-9]+$/.test(options.port ?? "4010") || port > 65535)
    return err("--port must be an integer from 0 to 65535");
  const latencyMs = Number(options.latencyMs ?? "0");
  if (!/^[0-9]+$/.test(options.latencyMs ?? "0"))
    return err("--latency-ms must be a whole number of milliseconds");
  const charge = options.storedMethodCharge ?? "true";
  if (charge !== "true" && charge !== "false") return err("--stored-method-charge must be true or false");
  const logger = createLogger({ level: "info" });
  let ledger: ReturnType<typeof createSandboxLedger>;
  try {
    ledger = createSandboxLedger(options.ledger === undefined ? {} : { file: options.ledger });
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    return err(`--ledger ${options.ledger} cannot be used (${reason})`);
  }
  const provider = createSandboxProvider({ ledger, latencyMs, storedMethodCharge: charge === "true" });
  try {
    const service = await startProviderService({ provider, port, host: options.host ?? "127.0.0.1" });
    logger.info(
      { url: service.url, ledger: options.ledger ?? null, charges: ledger.countCharges() },
      "sandbox provider listening",
    );
    return ok({ log: logger, close: () => service.close() });
  } catch (cause) {
    return err(`cannot listen on port ${port} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
  }
}
