// The HTTP scenarios measured the way issue 14 asks: the server pinned to core 0 (`taskset -c 0`),
// wrk pinned to core 1 (`taskset -c 1 wrk -t1 -c50`), bare Fastify and Kopek alternating, medians of
// the pairs; server CPU per request from /proc/<pid>/stat. Plain node, run after `pnpm build`:
//   node bench/pinned/pinned.mjs [create|replay] [pairs=3] [seconds=8] [root=.]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [scenario = "create", pairs = "3", seconds = "8", rootArg = "."] = process.argv.slice(2);
const root = resolve(rootArg);
const { generateApiKey, hashApiKey } = await import(`${root}/packages/core/dist/index.js`);
const { INVOICE_BODY } = await import(`${root}/bench/src/bodies.mjs`);
ensureWrk();
const dir = mkdtempSync(join(tmpdir(), "kopek-pinned-"));
const apiKey = generateApiKey();
const projects = join(dir, "projects.json");
const project = {
  id: crypto.randomUUID(),
  name: "bench",
  provider: { kind: "sandbox" },
  apiKeys: [{ sha256: hashApiKey(apiKey) }],
};
writeFileSync(projects, JSON.stringify({ projects: [project] }));
// A unique Idempotency-Key per request for a create, one fixed key for a replay. wrk.format with a
// headers table replaces wrk.headers, so they are copied.
const script = join(dir, "load.lua");
writeFileSync(
  script,
  `wrk.method = "POST"
wrk.body = ${JSON.stringify(INVOICE_BODY)}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer ${apiKey}"
wrk.headers["Idempotency-Key"] = "replay-fixed"
local counter = 0
local prefix = tostring(os.time()) .. "-" .. tostring(math.random(1, 1e9)) .. "-"
request = function()
  if ${scenario === "replay" ? "true" : "false"} then return wrk.format("POST", "/v1/invoices") end
  counter = counter + 1
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["Idempotency-Key"] = prefix .. counter
  return wrk.format("POST", "/v1/invoices", headers, wrk.body)
end
`,
);

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
// utime + stime of the whole process, in clock ticks (10 ms).
const ticks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
};

async function start(kind, port) {
  const args =
    kind === "kopek"
      ? [`${root}/packages/server/dist/cli.js`, "serve"]
      : [`${root}/bench/src/baseline-server.mjs`];
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: "info",
    PORT: String(port),
    HOST: "127.0.0.1",
    KOPEK_PROJECTS_FILE: projects,
    KOPEK_RATE_LIMIT: "0",
  };
  // taskset execs node: the child is the server process itself.
  const child = spawn("taskset", ["-c", "0", process.execPath, ...args], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${kind} did not start`);
}

function wrk(port, secs) {
  const out = execFileSync(
    "taskset",
    ["-c", "1", "wrk", "-t1", "-c50", `-d${secs}s`, "--latency", "-s", script, `http://127.0.0.1:${port}`],
    { encoding: "utf8" },
  );
  const p99 = /99%\s+([\d.]+)(us|ms|s)\b/.exec(out);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    total: Number(/(\d+) requests in/.exec(out)[1]),
    p99Us: Number(p99[1]) * { us: 1, ms: 1000, s: 1e6 }[p99[2]],
    non2xx: errors ? Number(errors[1]) : 0,
  };
}

const runs = { baseline: [], kopek: [] };
let port = 4300 + Math.floor(Math.random() * 500);
for (let pair = 0; pair < Number(pairs); pair++) {
  for (const kind of ["baseline", "kopek"]) {
    const child = await start(kind, ++port);
    if (scenario === "replay")
      await fetch(`http://127.0.0.1:${port}/v1/invoices`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${apiKey}`,
          "idempotency-key": "replay-fixed",
        },
        body: INVOICE_BODY,
      });
    wrk(port, 2); // warm-up
    const before = ticks(child.pid);
    const run = wrk(port, Number(seconds));
    run.cpuUs = ((ticks(child.pid) - before) * 10_000) / run.total;
    run.load = loadavg()[0];
    runs[kind].push(run);
    child.kill("SIGTERM");
    await sleep(500);
    console.error(`${kind} ${JSON.stringify(run)}`);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const m = (kind, field) => median(runs[kind].map((run) => run[field]));
const ratio = m("kopek", "rps") / m("baseline", "rps");
const p99 = m("kopek", "p99Us") / m("baseline", "p99Us");
const target = scenario === "replay" ? 0.8 : 0.6;
console.log(
  `${scenario}: req/s ${m("kopek", "rps").toFixed(0)} vs bare ${m("baseline", "rps").toFixed(0)} = ${ratio.toFixed(2)} ` +
    `(target ≥ ${target}: ${ratio >= target ? "PASS" : "FAIL"}); CPU µs/request ${m("kopek", "cpuUs").toFixed(0)} vs ${m("baseline", "cpuUs").toFixed(0)}; ` +
    `p99 ${p99.toFixed(2)}× (target ≤ 2: ${p99 <= 2 ? "PASS" : "FAIL"}); non-2xx ${runs.kopek.reduce((n, r) => n + r.non2xx, 0)}`,
);

function ensureWrk() {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
  } catch (error) {
    if (error.code !== "ENOENT") return; // wrk --version exits 1 but exists
    if (process.getuid?.() !== 0) throw new Error("wrk is missing: apt-get install wrk (Debian package)");
    execFileSync("apt-get", ["install", "-y", "-qq", "wrk"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
}
