// Summarises a V8 CPU profile (`node --cpu-prof`, or `pnpm bench --cpu-prof <dir>`): the functions
// with the most time of their own, and with the most time including what they call, as a share of
// the busy (not idle) time, or in µs per request when the number of requests is given.
//   node bench/src/profile-summary.mjs <file.cpuprofile> [requests or - for shares] [rows=30]
import { readFileSync } from "node:fs";

const [file, requestsArg, rowsArg = "30"] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write("usage: node bench/src/profile-summary.mjs <file.cpuprofile> [requests] [rows]\n");
  process.exit(2);
}
/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @type {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }}
 */
const profile = JSON.parse(readFileSync(file, "utf8"));
const requests = requestsArg === undefined || requestsArg === "-" ? null : Number(requestsArg);
const rows = Number(rowsArg);

/** @type {Map<number, ProfileNode>} */
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
/** @type {Map<number, number>} */
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
// Package paths shortened to the package: `fastify/lib/reply.js`, `packages/core/dist/…`.
/** @param {string} url */
const where = (url) =>
  url
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/^file:\/\/.*?\/(packages|bench)\//, "$1/");
/** @param {ProfileNode} node */
const nameOf = ({ callFrame: frame }) =>
  `${frame.functionName || "(anonymous)"} ${where(frame.url)}:${frame.lineNumber + 1}`;

/** @type {Map<string, number>} */
const own = new Map();
/** @type {Map<string, number>} */
const inclusive = new Map();
let busy = 0;
profile.samples.forEach((id, i) => {
  const micros = profile.timeDeltas[i] ?? 0;
  const leaf = /** @type {ProfileNode} */ (nodes.get(id));
  if (leaf.callFrame.functionName === "(idle)") return;
  busy += micros;
  own.set(nameOf(leaf), (own.get(nameOf(leaf)) ?? 0) + micros);
  const seen = new Set();
  for (let /** @type {number | undefined} */ at = id; at !== undefined; at = parents.get(at)) {
    const name = nameOf(/** @type {ProfileNode} */ (nodes.get(at)));
    if (seen.has(name)) continue; // recursion counts once
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
});

/** @param {number} micros */
const figure = (micros) =>
  requests === null
    ? `${((100 * micros) / busy).toFixed(1).padStart(5)} %`
    : `${(micros / requests).toFixed(1).padStart(7)} µs/req`;
/** @param {string} title @param {Map<string, number>} map */
const table = (title, map) => {
  console.log(`\n${title}`);
  for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(`${figure(micros)}  ${name}`);
};
console.log(`${file}: busy ${(busy / 1e6).toFixed(2)} s${requests === null ? "" : `, ${requests} requests`}`);
table("own time", own);
table("including callees", inclusive);
