/**
 * A short number a payer can read out to support (issue 42: "a short human order number beside the
 * UUID"): the last 40 bits of the invoice's UUID in Crockford's base32 (no I, L, O or U), as two groups
 * of four, e.g. `7KQ2-M9XD`. The UUID stays the id; this only names it to people. Within one project
 * two invoices share a number about once in a million pairs drawn a million apart (40 random bits of a
 * UUIDv7); support looks the UUID up, which the page shows beside it.
 */
export function orderNumberOf(invoiceId: string): string {
  const hex = invoiceId.replaceAll("-", "").slice(-10).padStart(10, "0");
  let bits = BigInt(`0x${/^[0-9a-fA-F]{10}$/.test(hex) ? hex : "0"}`);
  let text = "";
  for (let i = 0; i < 8; i++) {
    text = CROCKFORD[Number(bits & 31n)] + text;
    bits >>= 5n;
  }
  return `${text.slice(0, 4)}-${text.slice(4)}`;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
