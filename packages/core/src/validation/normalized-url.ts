/**
 * A URL in the one form Kopek stores and emits (API.md 5.4 `returnUrl`): the WHATWG parser's `href`,
 * which is pure ASCII — an internationalised host in punycode (`xn--…`), anything else outside ASCII
 * percent-encoded — and so always fit for a `Location` header, an HTML attribute or a CSP source.
 * A string the parser refuses is returned as it is (the URL check reports it).
 */
export function normalizedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
