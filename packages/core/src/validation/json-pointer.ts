/** Formats a path into a request body as a JSON Pointer in URI-fragment form (RFC 6901 §6): `#/a/0/b`. */
export function toPointer(path: readonly PropertyKey[]): string {
  let pointer = "#";
  for (const segment of path) {
    const escaped = String(segment).replaceAll("~", "~0").replaceAll("/", "~1");
    pointer += `/${encodeURIComponent(escaped).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  }
  return pointer;
}
