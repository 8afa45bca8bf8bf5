import { isIPv4, isIPv6 } from "node:net";

/**
 * The bucket a client address is counted in by the per-IP limits: an IPv4 address as it is (an
 * IPv4-mapped IPv6 address, `::ffff:203.0.113.7`, counts as that IPv4 address), and an IPv6 address
 * by its /64 — one subscriber is usually handed a whole /64, so counting single addresses would give
 * an attacker 2^64 fresh buckets. Anything else (no address at all) is counted as it is.
 */
export function rateLimitAddress(ip: string): string {
  if (isIPv4(ip)) return ip;
  const address = ip.split("%", 1)[0] ?? ip; // a zone (`fe80::1%eth0`) names an interface, not a client
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (isIpv4Mapped(groups))
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

type Groups = [number, number, number, number, number, number, number, number];

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): Groups {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back] as Groups;
}

const isIpv4Mapped = (groups: Groups) =>
  groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
