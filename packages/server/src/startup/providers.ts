import type { Clock, PaymentProvider, Project, ProviderSettings } from "@kopek/core";
import { createHttpProvider, DEFAULT_HTTP_PROVIDER_CAPABILITIES } from "@kopek/provider-http";
import { createSandboxLedger, createSandboxProvider, type SandboxLedger } from "@kopek/provider-sandbox";
import { createTBankProvider } from "@kopek/provider-tbank";
import { createYooKassaProvider } from "@kopek/provider-yookassa";
import type { KopekMetrics } from "../metrics/kopek-metrics.js";
import { observedProvider } from "../metrics/observed-provider.js";

export interface ProviderRegistryOptions {
  /** The sandbox's books, shared by every sandbox provider (one merchant account); new books by default. */
  readonly ledger?: SandboxLedger;
  /** Simulated latency of every sandbox answer (a testing aid); default 0. */
  readonly sandboxLatencyMs?: number;
  /** Where the sandbox's `chargedAt` comes from: the server's clock. Default: the wall clock. */
  readonly clock?: Clock;
  /** Where every provider call is timed and counted; not observed when omitted. */
  readonly metrics?: KopekMetrics;
  /**
   * Development only: provider APIs may be on this machine (loopback, over http:// too), as emulators
   * are. Default: KOPEK_PROVIDERS_ALLOW_LOCAL=on; otherwise only https:// to public addresses.
   */
  readonly allowLocalProviders?: boolean;
}

/**
 * Core's `providerFor`: one provider per distinct settings, made on first use and kept, so provider-side
 * idempotency and the sandbox's books hold across requests and projects.
 */
export function createProviderRegistry(
  options: ProviderRegistryOptions = {},
): (project: Project) => PaymentProvider {
  const ledger = options.ledger ?? createSandboxLedger();
  const latencyMs = options.sandboxLatencyMs ?? 0;
  const providers = new Map<string, PaymentProvider>();
  const allowLocal = options.allowLocalProviders ?? process.env.KOPEK_PROVIDERS_ALLOW_LOCAL === "on";
  const make = (settings: ProviderSettings): PaymentProvider => {
    switch (settings.kind) {
      case "sandbox":
        return createSandboxProvider({
          storedMethodCharge: settings.storedMethodCharge,
          ledger,
          latencyMs,
          ...(options.clock === undefined ? {} : { clock: options.clock }),
        });
      case "http":
        return createHttpProvider({
          url: settings.url,
          allowLocal,
          capabilities: settings.storedMethodCharge
            ? DEFAULT_HTTP_PROVIDER_CAPABILITIES
            : { ...DEFAULT_HTTP_PROVIDER_CAPABILITIES, storedMethodCharge: [] },
          ...(settings.timeoutMs === null ? {} : { timeoutMs: settings.timeoutMs }),
        });
      case "yookassa":
        return createYooKassaProvider({
          shopId: settings.shopId,
          secretKey: settings.secretKey,
          allowLocal,
          storedMethods: settings.storedMethods,
          saveWithoutPayment: settings.saveWithoutPayment === true,
          ...(settings.apiUrl === null ? {} : { apiUrl: settings.apiUrl }),
        });
      case "tbank":
        return createTBankProvider({
          terminalKey: settings.terminalKey,
          password: settings.password,
          allowLocal,
          storedMethods: settings.storedMethods,
          saveWithoutPayment: settings.saveWithoutPayment === true,
          ...(settings.apiUrl === null ? {} : { apiUrl: settings.apiUrl }),
        });
    }
  };
  return (project) => {
    const settings = project.provider;
    // Asked on every request: the common sandbox settings get a constant key instead of a JSON text.
    const key =
      settings.kind === "sandbox" ? `sandbox:${settings.storedMethodCharge}` : JSON.stringify(settings);
    let provider = providers.get(key);
    if (provider === undefined) {
      provider = make(settings);
      if (options.metrics !== undefined)
        provider = observedProvider(provider, settings.kind, options.metrics);
      providers.set(key, provider);
    }
    return provider;
  };
}
