import ipaddr from "ipaddr.js";

/**
 * Where Kopek's outbound requests (webhooks, provider APIs) may go. By default only `https:` to public
 * addresses: never loopback, link-local (169.254.0.0/16 — the cloud metadata address — and fe80::/10),
 * private or otherwise reserved ranges, and never plain `http:`, so neither a mistake nor a tampered
 * setting turns Kopek into a request forger inside the operator's network. `allowLocal` (development
 * only: tests and emulators on this machine) also allows loopback, over `http:` too. Checked here on the
 * URL as written, and again on the address DNS gave by the agents of `guarded-request.ts`.
 */
export interface OutboundPolicy {
  readonly allowLocal: boolean;
}

const LOOPBACK_NAMES = /^(localhost|.*\.localhost)\.?$/i;

/** Whether an IP address is loopback (127.0.0.0/8, ::1, or either mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && rangeOf(address) === "loopback";
}

/** The ipaddr.js range of an address; an IPv4-mapped IPv6 address is judged as the IPv4 it carries. */
function rangeOf(address: string): string {
  return ipaddr.process(address).range();
}

/**
 * Why `url` may not be requested, or null when it may. The phrase completes "<the URL> …"; `setting`
 * names the development opt-in the operator would turn on (e.g. `KOPEK_WEBHOOKS_ALLOW_LOCAL=on`).
 */
export function outboundUrlProblem(url: string, policy: OutboundPolicy, setting: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute https:// URL";
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const loopback = LOOPBACK_NAMES.test(host) || isLoopbackAddress(host);
  if (parsed.protocol === "http:" && !(policy.allowLocal && loopback))
    return `must be https:// (plain http:// only to loopback, with ${setting})`;
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an absolute https:// URL";
  if (parsed.username !== "" || parsed.password !== "") return "must not carry a user name or password";
  if (loopback) return policy.allowLocal ? null : "must not point at this machine (loopback)";
  if (ipaddr.isValid(host) && rangeOf(host) !== "unicast")
    return `must not point at a ${rangeOf(host)} address (only public addresses are reached)`;
  return null;
}
