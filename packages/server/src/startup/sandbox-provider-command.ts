import { type ProviderServiceHandler, startProviderService } from "@kopek/provider-http";
import { createSandboxCheckout, createSandboxLedger, createSandboxProvider } from "@kopek/provider-sandbox";
import { err, errAsync, ok, okAsync, type Result } from "neverthrow";
import { createLogger } from "./logger.js";
import type { Closable } from "./shutdown.js";

/**
 * `POST {service}/v1/sandbox/decide` `{ providerPaymentId, decision: "succeed" | "decline" }`: the payer
 * confirms or declines a payment made by `createPayment`, as on the sandbox's checkout page; answers
 * where the checkout would send the payer back (the payment's `returnUrl`).
 */
export const SANDBOX_DECIDE_PATH = "/v1/sandbox/decide";

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
  const checkout = createSandboxCheckout(ledger);
  // The payer's part at the sandbox, for a test driving payers with Kopek in other processes: its
  // checkout page is served by Kopek's own server only when the sandbox runs in that process.
  const decide: ProviderServiceHandler = (body) => {
    const { providerPaymentId, decision } = body;
    if (typeof providerPaymentId !== "string" || (decision !== "succeed" && decision !== "decline"))
      return null;
    const decided = checkout.decide(providerPaymentId, decision);
    return decided === null
      ? errAsync({ code: "failed", message: `no payment ${providerPaymentId}` })
      : okAsync({ providerPaymentId, status: decided.status, returnUrl: decided.returnUrl });
  };
  try {
    const service = await startProviderService({
      provider,
      port,
      host: options.host ?? "127.0.0.1",
      extra: { [SANDBOX_DECIDE_PATH]: decide },
    });
    logger.info(
      { url: service.url, ledger: options.ledger ?? null, charges: ledger.countCharges() },
      "sandbox provider listening",
    );
    return ok({ log: logger, close: () => service.close() });
  } catch (cause) {
    return err(`cannot listen on port ${port} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
  }
}
