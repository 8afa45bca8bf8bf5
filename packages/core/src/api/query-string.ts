/**
 * The query string of a request as Kopek reads it: a parameter given twice becomes an array (core refuses it
 * as "must be given once" rather than silently taking one), and the record has no prototype, so
 * `?__proto__=1` is an unknown parameter like any other instead of vanishing.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else query[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}
