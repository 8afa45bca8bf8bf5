import type { ProviderSettings } from "@kopek/core";
import { err, type Result } from "neverthrow";
import { providerEntrySchema, resolveProvider } from "../startup/provider-entry.js";

/** The provider options of `kopek projects create|update`, as typed. */
export interface ProviderOptions {
  readonly provider?: string | undefined;
  readonly url?: string | undefined;
  readonly storedMethodCharge?: string | undefined;
  readonly shopId?: string | undefined;
  readonly secretKeyFile?: string | undefined;
  readonly secretKeyEnv?: string | undefined;
  readonly terminalKey?: string | undefined;
  readonly passwordFile?: string | undefined;
  readonly passwordEnv?: string | undefined;
  readonly storedMethods?: string | undefined;
  readonly saveWithoutPayment?: string | undefined;
  readonly apiUrl?: string | undefined;
}

const OPTION_OF: Readonly<Record<string, string>> = {
  kind: "--provider",
  url: "--url",
  storedMethodCharge: "--stored-method-charge",
  shopId: "--shop-id",
  secretKeyFile: "--secret-key-file",
  secretKeyEnv: "--secret-key-env",
  terminalKey: "--terminal-key",
  passwordFile: "--password-file",
  passwordEnv: "--password-env",
  storedMethods: "--stored-methods",
  saveWithoutPayment: "--save-without-payment",
  apiUrl: "--api-url",
};

/**
 * The settings the options describe, checked by the projects file's own rules. On update, a project
 * that keeps its provider kind keeps what the options do not change, its secret key included; a new
 * kind starts from that kind's defaults. A usage problem is `{ usage }`; a secret that cannot be read,
 * `{ failure }`. Neither ever holds the secret.
 */
export async function providerFromOptions(
  options: ProviderOptions,
  existing: ProviderSettings | null,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Result<ProviderSettings, { usage: string } | { failure: string }>> {
  const kind = options.provider ?? existing?.kind ?? "sandbox";
  const kept = existing !== null && existing.kind === kind ? withoutSecret(existing) : {};
  const charge = options.storedMethodCharge;
  if (charge !== undefined && charge !== "true" && charge !== "false")
    return err({ usage: "--stored-method-charge must be true or false" });
  const noPayment = options.saveWithoutPayment;
  if (noPayment !== undefined && noPayment !== "true" && noPayment !== "false")
    return err({ usage: "--save-without-payment must be true or false" });
  const given: Record<string, unknown> = {
    url: options.url,
    storedMethodCharge: charge === undefined ? undefined : charge === "true",
    shopId: options.shopId,
    secretKeyFile: options.secretKeyFile,
    secretKeyEnv: options.secretKeyEnv,
    terminalKey: options.terminalKey,
    passwordFile: options.passwordFile,
    passwordEnv: options.passwordEnv,
    storedMethods: options.storedMethods?.split(",").filter((method) => method !== ""),
    saveWithoutPayment: noPayment === undefined ? undefined : noPayment === "true",
    apiUrl: options.apiUrl,
  };
  const changes = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const parsed = providerEntrySchema.safeParse({ ...kept, ...changes, kind });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "unrecognized_keys")
      return err({
        usage: `${OPTION_OF[issue.keys[0] ?? ""] ?? issue.keys[0]} does not apply to the ${kind} provider`,
      });
    if (issue?.path[0] === "kind")
      return err({ usage: "--provider must be sandbox, http, yookassa or tbank" });
    const option = OPTION_OF[String(issue?.path[0])] ?? `the ${kind} provider`;
    return err({ usage: `${option} ${issue?.message ?? "is invalid"}` });
  }
  const entry = parsed.data;
  const keepsSecret = existing?.kind === entry.kind;
  if (
    entry.kind === "yookassa" &&
    !keepsSecret &&
    entry.secretKeyFile === undefined &&
    entry.secretKeyEnv === undefined
  )
    return err({ usage: "the yookassa provider needs --secret-key-file <path> or --secret-key-env <NAME>" });
  if (
    entry.kind === "tbank" &&
    !keepsSecret &&
    entry.passwordFile === undefined &&
    entry.passwordEnv === undefined
  )
    return err({ usage: "the tbank provider needs --password-file <path> or --password-env <NAME>" });
  const resolved = await resolveProvider(entry, {
    baseDir: process.cwd(),
    env,
    fieldName: (field) => (field === "provider" ? `the ${entry.kind} provider` : (OPTION_OF[field] ?? field)),
    currentSecretKey: currentSecretOf(existing, entry.kind),
  });
  return resolved.mapErr((failure) => ({ failure }));
}

function withoutSecret(settings: ProviderSettings): Record<string, unknown> {
  if (settings.kind === "tbank") {
    const { password: _password, ...rest } = settings;
    return rest;
  }
  if (settings.kind !== "yookassa") return { ...settings };
  const { secretKey: _secret, ...rest } = settings;
  return rest;
}

/** The secret a project keeps when an update names no new source for it (same provider kind only). */
function currentSecretOf(existing: ProviderSettings | null, kind: string): string | undefined {
  if (existing?.kind !== kind) return undefined;
  if (existing.kind === "yookassa") return existing.secretKey;
  return existing.kind === "tbank" ? existing.password : undefined;
}

/** The settings in one line for `projects list` and the CLI's answers: never the secret key. */
export function describeProvider(settings: ProviderSettings): string {
  switch (settings.kind) {
    case "sandbox":
      return `sandbox storedMethodCharge=${settings.storedMethodCharge}`;
    case "http":
      return `http ${settings.url} storedMethodCharge=${settings.storedMethodCharge}`;
    case "yookassa":
      return (
        `yookassa shopId=${settings.shopId} storedMethods=${settings.storedMethods.join(",") || "none"}` +
        (settings.saveWithoutPayment === true ? " saveWithoutPayment=true" : "") +
        (settings.apiUrl === null ? "" : ` apiUrl=${settings.apiUrl}`)
      );
    case "tbank":
      return (
        `tbank terminalKey=${settings.terminalKey} storedMethods=${settings.storedMethods.join(",") || "none"}` +
        (settings.saveWithoutPayment === true ? " saveWithoutPayment=true" : "") +
        (settings.apiUrl === null ? "" : ` apiUrl=${settings.apiUrl}`)
      );
  }
}
