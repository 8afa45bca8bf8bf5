/**
 * Headers that make a response safe to mishandle: never cached by a shared cache or the browser, never
 * sending the URL on as a referrer, and, for anything that is not a page with its own policy, a
 * Content-Security-Policy that lets it load nothing and be framed by nothing. A route that sets its
 * own (the API docs page, the hosted payment page, cacheable static assets) keeps its value.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

const NAMES = Object.keys(SECURITY_HEADERS);

/** The reply's side of `SECURITY_HEADERS`: sets each header the route did not set itself. */
export function addMissingSecurityHeaders(reply: {
  hasHeader(name: string): boolean;
  header(name: string, value: string): unknown;
}): void {
  for (const name of NAMES) {
    if (!reply.hasHeader(name)) reply.header(name, SECURITY_HEADERS[name] as string);
  }
}
