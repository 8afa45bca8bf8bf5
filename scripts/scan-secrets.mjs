// Secret scan, run by .ci/run after the whole test suite: every server log line the tests wrote
// (.tmp/logs/) and a pg_dump of every test database (.tmp/dumps/) are searched for
//   - API keys: `kopek_` + 38 base62 characters with a valid checksum (core's isWellFormedApiKey);
//   - card numbers: core's containsCardNumber on each line, after removing what is known not to be one
//     (UUIDs, hex digests, timestamps, epoch milliseconds, amounts of money);
//   - plaintext method tokens: the refs the tests sent, recorded by the test helpers in .tmp/secrets/,
//     and anything shaped like the refs the test suites use (`pm_…`, `tok_…`), recorded or not;
//   - provider secret keys: anything shaped like a YooKassa secret key (`live_`/`test_` and 40 or
//     more base64url characters), which the tests' keys imitate;
//   - webhook signing secrets: `whsec_` and the base64 of a key (an endpoint's secret, and the
//     previous one a rotation keeps for 24 h, are stored encrypted and never logged).
// Zero hits: exit 0. Otherwise exit 1, listing file:line and what was found — never the secret itself.
// Usage: node scripts/scan-secrets.mjs [--root .tmp] [--allow-empty]
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { root: { type: "string", default: ".tmp" }, "allow-empty": { type: "boolean", default: false } },
});
const root = values.root;
// The built core; its source when run under tsx (the test of this script does that).
const coreDist = new URL("../packages/core/dist/index.js", import.meta.url);
const coreSource = new URL("../packages/core/src/index.ts", import.meta.url);
const fromSource = process.env.KOPEK_SCAN_CORE_SOURCE === "1";
if (!fromSource && !existsSync(coreDist)) {
  console.error("scan-secrets: packages/core/dist is missing: run pnpm build first");
  process.exit(2);
}
const { containsCardNumber, isWellFormedApiKey } = await import((fromSource ? coreSource : coreDist).href);

const filesIn = (dir, suffix) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith(suffix))
        .map((name) => join(dir, name))
    : [];
const logs = filesIn(join(root, "logs"), ".log");
const dumps = filesIn(join(root, "dumps"), ".sql");

// Method refs the tests sent; indexed by their first PREFIX characters for a one-pass search.
const PREFIX = 10;
const refsByPrefix = new Map();
let refCount = 0;
for (const file of filesIn(join(root, "secrets"), ".txt")) {
  for (const ref of readFileSync(file, "utf8").split("\n")) {
    if (ref.length < PREFIX) continue;
    const key = ref.slice(0, PREFIX);
    const list = refsByPrefix.get(key) ?? [];
    if (!list.includes(ref)) {
      list.push(ref);
      refCount += 1;
    }
    refsByPrefix.set(key, list);
  }
}

// Not card numbers, whatever Luhn says: ids, digests, times and amounts (docs/reliability.md).
const NOT_CARDS = [
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, // UUIDs
  /\b[0-9a-f]{16,}\b/gi, // hex digests: key hashes, fingerprints
  /\b[a-z]+_[0-9a-f]{16,}\b/gi, // provider ids: a prefix and hex (the sandbox's ch_…, pay_…)
  /\\x[0-9a-f]+/gi, // bytea in a dump: ciphertext
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)?/g, // timestamps
  /"(time|durationMs|pid)":\d+/g, // pino's epoch milliseconds and friends
  /"amount":"\d+"/g, // money: an amount is a string of minor units, up to 18 digits
  /"applied":\[[\d,]*\]/g, // the migrations a start applied: "1,2,…,15" passes Luhn read as one run
];
// Columns of plain numbers that are never card data: money in minor units, and the rate limiter's
// counters and epoch-millisecond expiries (`kopek_rate_limits`: next to each other in a dump line, a
// count and a 13-digit time can make a Luhn-valid run of 15 digits).
const NUMBER_COLUMNS = new Set(["amount", "amount_minor", "amount_refunded", "points", "expire"]);

// The refs every test suite sends look like this (@kopek/testing's fixtures: `pm_sandbox_<uuid>`, `pm_secret_…`).
const TOKEN_SHAPE = /\b(?:pm|tok)_[A-Za-z0-9_-]{6,}/;
// A YooKassa secret key (and the tests' look-alikes): `live_` or `test_` and 43 base64url characters.
const PROVIDER_SECRET_SHAPE = /\b(?:live|test)_[A-Za-z0-9_-]{40,}/;
// A webhook signing secret as core's generateWebhookSecret makes it: `whsec_` and the base64 of 32 bytes.
const WEBHOOK_SECRET_SHAPE = /\bwhsec_[A-Za-z0-9+/]{32,}/;

function* apiKeysIn(line) {
  for (const match of line.matchAll(/kopek_[0-9A-Za-z]{38}/g)) if (isWellFormedApiKey(match[0])) yield match;
}

function refIn(line) {
  for (let i = 0; i + PREFIX <= line.length; i++) {
    const candidates = refsByPrefix.get(line.slice(i, i + PREFIX));
    if (candidates?.some((ref) => line.startsWith(ref, i))) return true;
  }
  return false;
}

const hits = [];
let lines = 0;
function scanFile(file, kind) {
  // A dump's COPY block names its columns: number columns hold money, counts and times, not card numbers.
  let numberColumns = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, index) => {
      lines += 1;
      const where = `${relative(process.cwd(), file)}:${index + 1}`;
      if (kind === "dump") {
        const copy = text.match(/^COPY \S+ \(([^)]*)\) FROM stdin;$/);
        if (copy)
          numberColumns = copy[1].split(", ").map((column, i) => (NUMBER_COLUMNS.has(column) ? i : -1));
        else if (text === "\\.") numberColumns = [];
      }
      let cleaned = text;
      if (kind === "dump" && numberColumns.some((i) => i >= 0)) {
        const cells = text.split("\t");
        for (const i of numberColumns) if (i >= 0 && i < cells.length) cells[i] = "";
        cleaned = cells.join("\t");
      }
      for (const pattern of NOT_CARDS) cleaned = cleaned.replace(pattern, " ");
      for (const _ of apiKeysIn(text)) hits.push(`${where}: an API key`);
      // A dump's cells are separated by tabs, which the card rule reads as the spaces between a card's
      // digit groups: digits in neighbouring cells (a numeric provider id, a card mask) are no card.
      const cells = kind === "dump" ? cleaned.split("\t") : [cleaned];
      if (cells.some((cell) => containsCardNumber(cell))) hits.push(`${where}: a card number`);
      if ((refsByPrefix.size > 0 && refIn(text)) || TOKEN_SHAPE.test(text))
        hits.push(`${where}: a plaintext method token`);
      if (PROVIDER_SECRET_SHAPE.test(text)) hits.push(`${where}: a provider secret key`);
      if (WEBHOOK_SECRET_SHAPE.test(text)) hits.push(`${where}: a webhook signing secret`);
    });
}
for (const file of logs) scanFile(file, "log");
for (const file of dumps) scanFile(file, "dump");

const figures = {
  logFiles: logs.length,
  dumps: dumps.length,
  lines,
  methodRefs: refCount,
  secretsFound: hits.length,
};
mkdirSync(join(root, "figures"), { recursive: true });
writeFileSync(join(root, "figures", "secrets.json"), `${JSON.stringify(figures, null, 2)}\n`);
console.log(
  `secret scan: ${logs.length} log files and ${dumps.length} database dumps, ${lines} lines, ` +
    `${refCount} method refs looked for: ${hits.length} secrets found`,
);
if (logs.length === 0 && !values["allow-empty"]) {
  console.error("scan-secrets: no log files under .tmp/logs: the test helpers did not write them");
  process.exit(1);
}
if (hits.length > 0) {
  for (const hit of hits.slice(0, 200)) console.error(`  ${hit}`);
  if (hits.length > 200) console.error(`  … and ${hits.length - 200} more`);
  process.exit(1);
}
