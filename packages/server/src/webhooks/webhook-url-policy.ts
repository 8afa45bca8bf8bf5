import ipaddr from "ipaddr.js";

/**
 * Where webhooks may go. By default only `https:` to public addresses: never loopback, link-local
 * (169.254.0.0/16 — the cloud metadata address — and fe80::/10), private or otherwise reserved ranges,
 * and never plain `http:`, so neither a mistake nor a tampered projects file turns the dispatcher into
 * a request forger inside the operator's network. `KOPEK_WEBHOOKS_ALLOW_LOCAL=on` (development only)
 * also allows loopback, over `http:` too. Checked when an endpoint is configured (here, on the URL as
 * written) and again at every delivery on the address DNS gave (`guarded-transport.ts`).
 */
export interface WebhookUrlPolicy {
  readonly allowLocal: boolean;
}

/** The policy the environment asks for: local receivers only with KOPEK_WEBHOOKS_ALLOW_LOCAL=on. */
export function webhookUrlPolicy(env: Readonly<Record<string, string | undefined>> = process.env) {
  return { allowLocal: env.KOPEK_WEBHOOKS_ALLOW_LOCAL === "on" };
}

const LOOPBACK_NAMES = /^(localhost|.*\.localhost)\.?$/i;

/** Whether an IP address is loopback (127.0.0.0/8, ::1, or either mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && rangeOf(address) === "loopback";
}

/** The ipaddr.js range of an address; an IPv4-mapped IPv6 address is judged as the IPv4 it carries. */
function rangeOf(address: string): string {
  const parsed = ipaddr.process(address);
  return parsed.range();
}

/** Why `url` cannot be a webhook endpoint, or null when it can. The phrase completes "--url …". */
export function webhookUrlProblem(url: string, policy: WebhookUrlPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute https:// URL";
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const loopback = LOOPBACK_NAMES.test(host) || (ipaddr.isValid(host) && rangeOf(host) === "loopback");
  if (parsed.protocol === "http:" && !(policy.allowLocal && loopback))
    return "must be https:// (plain http:// only to loopback, with KOPEK_WEBHOOKS_ALLOW_LOCAL=on)";
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an absolute https:// URL";
  if (parsed.username !== "" || parsed.password !== "") return "must not carry a user name or password";
  if (loopback) return policy.allowLocal ? null : "must not point at this machine (loopback)";
  if (ipaddr.isValid(host) && rangeOf(host) !== "unicast")
    return `must not point at a ${rangeOf(host)} address (only public addresses receive webhooks)`;
  return null;
}
