// What `pnpm proof:citus` tells after its run: every statement the Citus coordinator refused, read from
// its log (each ERROR with the STATEMENT PostgreSQL logs after it), grouped by the source file whose
// text holds most of the statement (a guess by text match: SQL built from parts can match loosely),
// then by error, each distinct statement once with how often it was refused.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ENTRY = /^\S+ \S+ \S+ \[(\d+)\] (ERROR|STATEMENT|HINT|DETAIL|CONTEXT|LOG|WARNING|FATAL):\s+(.*)$/;
const WINDOW = 24;

/** The refusals in a coordinator log: `{ error, statement }` for each ERROR followed by its STATEMENT. */
export function parseRefusals(logText) {
  const refusals = [];
  const open = new Map(); // pid → the refusal whose statement comes next
  let current = null; // the entry that continuation lines (starting with a tab) belong to
  for (const line of logText.split("\n")) {
    const match = ENTRY.exec(line);
    if (match === null) {
      if (current !== null && line.startsWith("\t")) current.text += `\n${line.slice(1)}`;
      continue;
    }
    const [, pid, kind, text] = match;
    current = null;
    if (kind === "ERROR") {
      const refusal = { error: text, statement: "" };
      refusals.push(refusal);
      open.set(pid, refusal);
    } else if (kind === "STATEMENT" && open.has(pid)) {
      const refusal = open.get(pid);
      open.delete(pid);
      current = { text };
      refusal.statementEntry = current;
    }
  }
  return refusals.map(({ error, statementEntry }) => ({
    error,
    statement: normalize(statementEntry?.text ?? "(no statement logged)"),
  }));
}

const normalize = (sql) => sql.replace(/\s+/g, " ").trim();

/** The .ts files that may hold SQL: storage-postgres's sources and the tests that run in proof:citus. */
function sourceFiles(root) {
  const dirs = [
    "packages/storage-postgres/src",
    "packages/storage-postgres/test",
    "packages/server/src/limits",
  ];
  const files = [];
  for (const dir of dirs) {
    try {
      for (const name of readdirSync(join(root, dir), { recursive: true }))
        if (String(name).endsWith(".ts")) files.push(join(dir, String(name)));
    } catch {
      // A folder that is not there holds no SQL.
    }
  }
  for (const name of readdirSync(join(root, "packages/server/test")))
    if (name.endsWith(".ts")) files.push(join("packages/server/test", name));
  return files.map((file) => ({ file, text: normalize(readFileSync(join(root, file), "utf8")) }));
}

// A statement is known by its clauses more than by its column list, which several files repeat.
const CLAUSE = /\b(FROM|WHERE|JOIN|ORDER BY|GROUP BY|LIMIT|SET|ON CONFLICT|RETURNING|USING|SKIP LOCKED)\b/;

/**
 * The file that best holds the statement's 24-character windows that name a clause (all windows when
 * none matches), each window weighing 1 / the number of files that hold it; "(no source matched)".
 */
function sourceOf(statement, files) {
  const windows = [];
  for (let i = 0; i + WINDOW <= statement.length; i += WINDOW / 3)
    windows.push(statement.slice(i, i + WINDOW));
  return (
    best(
      windows.filter((w) => CLAUSE.test(w)),
      files,
    ) ??
    best(windows, files) ??
    "(no source matched)"
  );
}

function best(windows, files) {
  const score = new Map();
  for (const window of windows) {
    const holders = files.filter(({ text }) => text.includes(window));
    for (const { file } of holders) score.set(file, (score.get(file) ?? 0) + 1 / holders.length);
  }
  const [first] = [...score].sort(([, a], [, b]) => b - a);
  return first?.[0];
}

// Errors that come from distribution (Citus's own, or a key a sharded schema changed). Any other error
// in the log (a check constraint, a read-only transaction) may be one a test provokes on purpose.
const CITUS_LIKE =
  /multi-task|distribute|shard|push down|colocat|reference table|not supported|citus|no unique or exclusion constraint|is not unique/i;

/**
 * Markdown: the refusals that come from sharding, then the other errors, each by source file, by
 * error, each distinct statement with its count. `count`: the refusals that come from sharding.
 */
export function refusalReport(logText, root) {
  const refusals = parseRefusals(logText);
  const files = sourceFiles(root);
  const citus = refusals.filter((refusal) => CITUS_LIKE.test(refusal.error));
  const other = refusals.filter((refusal) => !CITUS_LIKE.test(refusal.error));
  const text = [
    `# Statements the Citus coordinator refused for sharding (${citus.length})`,
    "",
    ...grouped(citus, files),
    `# Other errors in the coordinator's log, some provoked on purpose by tests (${other.length})`,
    "",
    ...grouped(other, files),
  ].join("\n");
  return { count: citus.length, text };
}

function grouped(refusals, files) {
  const groups = new Map();
  for (const { error, statement } of refusals) {
    const file = sourceOf(statement, files);
    const byError = groups.get(file) ?? new Map();
    groups.set(file, byError);
    const byStatement = byError.get(error) ?? new Map();
    byError.set(error, byStatement);
    byStatement.set(statement, (byStatement.get(statement) ?? 0) + 1);
  }
  const lines = [];
  for (const [file, byError] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`## ${file}`, "");
    for (const [error, byStatement] of byError) {
      lines.push(`- **${error}**`);
      for (const [statement, count] of byStatement) lines.push(`  - ${count} × \`${statement}\``);
    }
    lines.push("");
  }
  return lines.length === 0 ? ["None.", ""] : lines;
}
