/**
 * A copy of `headers` with one more header (or that header replaced); the names are Kopek's own
 * (never `__proto__`, which a plain assignment would not copy as a header). Copied key by key, not as
 * `{ ...headers, [name]: value }`: on Node 20 (V8 11.3) an object spread followed by a new key costs
 * ~650 ns instead of ~30, and the copies it makes outlive young-generation collections (they are
 * promoted, then collected by full GCs). A replay built that way cost every idempotent retry both
 * (docs/performance-log.md, "Object spread on Node 20"). Node 24 has neither cost.
 */
export function withHeader(
  headers: Readonly<Record<string, string>>,
  name: string,
  value: string,
): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const header in headers) copy[header] = headers[header] as string;
  copy[name] = value;
  return copy;
}
