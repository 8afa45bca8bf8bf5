import type { FieldIssue } from "../domain/errors.js";

/**
 * A rule over one string of a request body — a value or an object key, at any depth — returning the
 * issue it finds or null. `path` is only valid during the call: copy it (e.g. into a pointer) to keep it.
 */
export type StringRule = (text: string, path: readonly PropertyKey[], isKey: boolean) => FieldIssue | null;

/**
 * Every issue `rules` find in the strings of `body`, in one walk, the first rule that objects to a
 * string reporting it. Rules over every string walk the raw body rather than being repeated on each
 * field's schema, so a field added later is covered without anyone remembering to. A refused key's
 * value is not looked into: its whole entry is refused already.
 */
export function stringIssues(body: unknown, rules: readonly StringRule[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  walk(body, [], rules, issues);
  return issues;
}

// `path` is one array pushed and popped on the way down: most bodies break no rule, and a pointer
// (or a copy of the path) is made only for a string that does.
function walk(node: unknown, path: PropertyKey[], rules: readonly StringRule[], issues: FieldIssue[]): void {
  if (typeof node === "string") {
    const issue = firstIssue(node, path, false, rules);
    if (issue !== null) issues.push(issue);
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      path.push(index);
      walk(node[index], path, rules, issues);
      path.pop();
    }
    return;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    path.push(key);
    const issue = firstIssue(key, path, true, rules);
    if (issue !== null) issues.push(issue);
    else walk((node as Record<string, unknown>)[key], path, rules, issues);
    path.pop();
  }
}

function firstIssue(
  text: string,
  path: readonly PropertyKey[],
  isKey: boolean,
  rules: readonly StringRule[],
): FieldIssue | null {
  for (const rule of rules) {
    const issue = rule(text, path, isKey);
    if (issue !== null) return issue;
  }
  return null;
}
