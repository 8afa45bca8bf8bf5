/** Deepest nesting a request body may have: Kopek's deepest field is 3 levels down (`customer.email`). */
export const MAX_JSON_DEPTH = 32;
/** Most object keys and array elements a request body may hold in all; a metadata object has at most 50. */
export const MAX_JSON_MEMBERS = 1000;

const TOO_DEEP = `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
const TOO_MANY = `the request body has more than ${MAX_JSON_MEMBERS} keys and array elements`;

/**
 * Why a parsed body is refused before anything else reads it, or null when it is within the limits.
 * Validation, fingerprinting and error reporting all walk the body, some recursively: a 64 KiB body of
 * `[[[[…]]]]` is 32,000 levels deep and would exhaust the stack there. This walk recurses too, but
 * never past `MAX_JSON_DEPTH`, and allocates nothing (it runs on every request).
 */
export function jsonLimitViolation(body: unknown): string | null {
  const members = countMembers(body, 0, 0);
  return members === DEPTH_EXCEEDED ? TOO_DEEP : members > MAX_JSON_MEMBERS ? TOO_MANY : null;
}

const DEPTH_EXCEEDED = -1;

// The members counted so far, `counted` included; past the limit the count is returned as soon as it
// is known, so a huge body is not walked to its end.
function countMembers(value: unknown, depth: number, counted: number): number {
  if (typeof value !== "object" || value === null) return counted;
  if (depth >= MAX_JSON_DEPTH) return DEPTH_EXCEEDED;
  let total = counted;
  if (Array.isArray(value)) {
    total += value.length;
    for (let i = 0; i < value.length && total <= MAX_JSON_MEMBERS; i++) {
      total = countMembers(value[i], depth + 1, total);
      if (total === DEPTH_EXCEEDED) return DEPTH_EXCEEDED;
    }
    return total;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    total += 1;
    if (total > MAX_JSON_MEMBERS) return total;
    total = countMembers((value as Record<string, unknown>)[key], depth + 1, total);
    if (total === DEPTH_EXCEEDED) return DEPTH_EXCEEDED;
  }
  return total;
}
