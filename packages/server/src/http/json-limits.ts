/** Deepest nesting a request body may have: Kopek's deepest field is 3 levels down (`customer.email`). */
export const MAX_JSON_DEPTH = 32;
/** Most object keys and array elements a request body may hold in all; a metadata object has at most 50. */
export const MAX_JSON_MEMBERS = 1000;

/**
 * Why a parsed body is refused before anything else reads it, or null when it is within the limits.
 * Validation, fingerprinting and error reporting all walk the body, some recursively: a 64 KiB body of
 * `[[[[…]]]]` is 32,000 levels deep and would exhaust the stack there. Iterative, so the check itself
 * cannot.
 */
export function jsonLimitViolation(body: unknown): string | null {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: body, depth: 0 }];
  let members = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) return `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
    const children = Array.isArray(value) ? value : Object.values(value);
    members += children.length;
    if (members > MAX_JSON_MEMBERS)
      return `the request body has more than ${MAX_JSON_MEMBERS} keys and array elements`;
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return null;
}
