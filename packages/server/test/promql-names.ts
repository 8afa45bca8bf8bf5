const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset",
  "inf",
  "nan",
]);

/**
 * The metric names a PromQL expression selects: every identifier left once string literals, label
 * matchers `{…}`, ranges `[…]`, grouping clauses `by (…)`, offsets and function calls' names are set
 * aside. Enough for the expressions of our alert rules and dashboard (a check, not a parser).
 */
export function metricNames(expr: string): Set<string> {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, " ")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\boffset\s+-?[0-9a-z]+/g, " ");
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = match;
    if (name === undefined || call !== undefined || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return names;
}
