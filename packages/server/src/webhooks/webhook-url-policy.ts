import type { WebhookUrlProblem } from "@kopek/core";
import { type OutboundPolicy, outboundUrlProblem } from "@kopek/outbound";

/**
 * Where webhooks may go: the rule of every outbound request (`@kopek/outbound`): only `https:` to
 * public addresses, so neither a mistake nor a tampered projects file turns the dispatcher into a
 * request forger inside the operator's network. `KOPEK_WEBHOOKS_ALLOW_LOCAL=on` (development only)
 * also allows loopback, over `http:` too. Checked when an endpoint is configured (here, on the URL as
 * written) and again at every delivery on the address DNS gave (`guarded-transport.ts`).
 */
export type WebhookUrlPolicy = OutboundPolicy;

export const WEBHOOKS_LOCAL_SETTING = "KOPEK_WEBHOOKS_ALLOW_LOCAL=on";

/** The policy the environment asks for: local receivers only with KOPEK_WEBHOOKS_ALLOW_LOCAL=on. */
export function webhookUrlPolicy(env: Readonly<Record<string, string | undefined>> = process.env) {
  return { allowLocal: env.KOPEK_WEBHOOKS_ALLOW_LOCAL === "on" };
}

/** Why `url` cannot be a webhook endpoint, or null when it can. The phrase completes "--url …". */
export function webhookUrlProblem(url: string, policy: WebhookUrlPolicy): string | null {
  return outboundUrlProblem(url, policy, WEBHOOKS_LOCAL_SETTING);
}

/** The rule an environment asks for, as core takes it (`KopekOptions.webhookUrlProblem`): API and CLI alike. */
export function webhookUrlRule(
  env: Readonly<Record<string, string | undefined>> = process.env,
): WebhookUrlProblem {
  const policy = webhookUrlPolicy(env);
  return (url) => webhookUrlProblem(url, policy);
}
