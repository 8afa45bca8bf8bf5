import { INVOICE_BODY, INVOICE_RESPONSE } from "./bodies.mjs";
import type { CapturedStatement } from "./pg-capture.js";

/**
 * A string literal pgbench leaves alone: it would take `:3000` or the `:30` of `09:30` inside a literal
 * for a variable, so colons are written as the escape \x3a (and backslashes doubled) in an E'' string.
 */
const quote = (text: string) =>
  `E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''").replaceAll(":", "\\x3a")}'`;
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ISO_IN_TEXT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/;
const UUID = new RegExp(`^${UUID_IN_TEXT.source}$`, "i");
/** A timestamp the adapter passes as ISO 8601 text rather than as a Date. */
const ISO_TIMESTAMP = new RegExp(`^${ISO_IN_TEXT.source}$`);

/** The instant a parameter holds, if it is a timestamp (a Date, or ISO 8601 text). */
function instantOf(value: unknown): Date | null {
  if (value instanceof Date) return value;
  return typeof value === "string" && ISO_TIMESTAMP.test(value) ? new Date(value) : null;
}
const RANDOM = "random(1, 1000000000000000000)";

/** The least SQL that does the same work: the invoice and its completed idempotency record, one CTE. */
export function minimalScript(projectId: string): string {
  const body = JSON.parse(INVOICE_BODY);
  const project = `${quote(projectId)}::uuid`;
  return `\\set key ${RANDOM}
WITH invoice AS (
  INSERT INTO invoices (id, project_id, status, amount, currency, description, comment, customer, metadata,
                        payment_url, return_url, allowed_methods, method, pinned_method, created_at, expires_at, paid_at)
  VALUES (gen_random_uuid(), ${project}, 'created', 149900, 'RUB', ${quote(body.description)}, ${quote(body.comment)},
          ${quote(JSON.stringify(body.customer))}::jsonb, ${quote(JSON.stringify(body.metadata))}::jsonb,
          ${quote(`http://127.0.0.1:3000/pay/${projectId}/`)} || gen_random_uuid(), ${quote(body.returnUrl)}, '{card,sbp}', NULL, NULL,
          now(), now() + interval '7 days', NULL)
  RETURNING id
)
INSERT INTO idempotency_records (project_id, key, fingerprint, record_id, state, expires_at, created_at,
                                 response_status, response_headers, response_body)
SELECT ${project}, 'minimal-' || :key::text, ${quote("f".repeat(64))}, gen_random_uuid(), 'completed',
       now() + interval '24 hours', now(), 201,
       jsonb_build_object('content-type', 'application/json; charset=utf-8', 'location', '/v1/invoices/' || id),
       ${quote(INVOICE_RESPONSE)}
  FROM invoice;
`;
}

/** A parameter's value as a SQL literal (node-postgres' own conversions: dates, arrays, JSON, bytes). */
function literal(value: unknown, type: string): string {
  const cast = type === "unknown" ? "" : `::${type}`;
  return `(${bare(value, cast)})`;
}

function bare(value: unknown, cast: string): string {
  if (value === null || value === undefined) return `NULL${cast}`;
  if (value instanceof Date) return `${quote(value.toISOString())}${cast}`;
  if (Buffer.isBuffer(value)) return `${quote(`\\x${value.toString("hex")}`)}${cast}`;
  if (Array.isArray(value))
    return `${quote(`{${value.map((item) => `"${String(item).replaceAll('"', '\\"')}"`).join(",")}}`)}${cast}`;
  if (typeof value === "object") return `${quote(JSON.stringify(value))}${cast}`;
  return `${quote(String(value))}${cast}`;
}

/**
 * The adapter's statements as a pgbench script. A value that changed between two requests is
 * per-request: a uuid becomes one drawn from a `\set` random variable (the same value keeps the same
 * variable, so a lease token still matches), a timestamp (a Date, or ISO 8601 text) becomes now()
 * plus its offset; everything else (the project, key hash, fingerprint, response bytes) stays the
 * captured literal. Inside a JSON text parameter (a batch of creates), the uuids that were not in the
 * previous request's and the ISO timestamps are replaced the same way, by string concatenation.
 */
export function adapterScript(
  statements: readonly CapturedStatement[],
  previous: readonly CapturedStatement[],
): string {
  const variables = new Map<string, string>();
  const dates = statements.flatMap((s) =>
    s.values.flatMap((v) => {
      if (typeof v === "string" && /^[[{]/.test(v))
        return [...v.matchAll(new RegExp(ISO_IN_TEXT.source, "g"))].map((m) => new Date(m[0]));
      return instantOf(v) ?? [];
    }),
  );
  const origin = Math.min(...dates.map((date) => date.getTime()));
  const comparable =
    previous.length === statements.length && previous.every((s, i) => s.text === statements[i]?.text);
  const varies = (statement: number, parameter: number, value: unknown) =>
    comparable
      ? JSON.stringify(previous[statement]?.values[parameter]) !== JSON.stringify(value)
      : instantOf(value) !== null || (typeof value === "string" && UUID.test(value));
  const expression = (value: unknown, type: string, statement: number, parameter: number) => {
    if (!varies(statement, parameter, value)) return literal(value, type);
    const instant = instantOf(value);
    if (instant !== null)
      return `((now() + interval '${instant.getTime() - origin} milliseconds')::${type === "unknown" ? "timestamptz" : type})`;
    if (typeof value === "string" && UUID.test(value)) {
      const uuid = uuidVariable(value);
      return type === "uuid" ? `(${uuid})` : `((${uuid}::text)${type === "unknown" ? "" : `::${type}`})`;
    }
    if (typeof value === "string" && /^[[{]/.test(value)) {
      const before = previous[statement]?.values[parameter];
      return `(${jsonWithFreshValues(value, typeof before === "string" ? before : "")})${type === "unknown" ? "" : `::${type}`}`;
    }
    return literal(value, type);
  };
  const uuidVariable = (value: string) => {
    const name = variables.get(value) ?? `v${variables.size + 1}`;
    variables.set(value, name);
    return `md5(:${name}::text)::uuid`;
  };
  // The JSON text as a concatenation: literal pieces around fresh uuids and timestamps.
  const jsonWithFreshValues = (text: string, before: string) => {
    const token = new RegExp(`${UUID_IN_TEXT.source}|${ISO_IN_TEXT.source}`, "gi");
    const parts: string[] = [];
    let last = 0;
    for (const match of text.matchAll(token)) {
      const found = match[0];
      const instant = instantOf(found);
      if (instant === null && before.includes(found)) continue;
      parts.push(quote(text.slice(last, match.index)));
      parts.push(
        instant !== null
          ? `(now() + interval '${instant.getTime() - origin} milliseconds')::text`
          : `(${uuidVariable(found)})::text`,
      );
      last = match.index + found.length;
    }
    parts.push(quote(text.slice(last)));
    return parts.join(" || ");
  };
  const sql = statements.map((statement, s) => {
    const text = statement.text.replace(/\$(\d+)/g, (_match, digits: string) => {
      const index = Number(digits) - 1;
      return expression(statement.values[index], statement.types[index] ?? "unknown", s, index);
    });
    return `${text.trim().replace(/;\s*$/, "")};`;
  });
  const sets = [...variables.values()].map((name) => `\\set ${name} ${RANDOM}`);
  return `${[...sets, ...sql].join("\n")}\n`;
}
