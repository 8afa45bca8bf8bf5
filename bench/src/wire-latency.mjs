// Request → response latency as seen on the loopback interface, from a capture of a pinned run:
//
//   tcpdump -i lo -n -s 96 -w /tmp/cap.pcap tcp port <server port>    (during the run)
//   tcpdump -r /tmp/cap.pcap -n -tt | node bench/src/wire-latency.mjs <server port>
//
// Each connection's first data packet towards the server starts a request; the server's next data
// packet on that connection ends it. The figure includes the wait to be read, which Node's `request`
// event does not see, and leaves out the load generator's own delays, which wrk's figures include
// (docs/performance.md, "The create's tail on the wire").
import { createInterface } from "node:readline";

const port = process.argv[2];
if (port === undefined) {
  process.stderr.write(
    "usage: tcpdump -r <capture> -n -tt | node bench/src/wire-latency.mjs <server port>\n",
  );
  process.exit(2);
}
const packet = /^(\d+\.\d+) IP [\d.]+\.(\d+) > [\d.]+\.(\d+):.* length (\d+)/;
const started = new Map();
/** @type {number[]} */
const latencies = [];
for await (const line of createInterface({ input: process.stdin })) {
  const match = packet.exec(line);
  if (match === null || match[4] === "0") continue;
  const [, time, from, to] = match;
  const at = Number(time) * 1000;
  if (to === port) {
    if (!started.has(from)) started.set(from, at);
  } else if (from === port && started.has(to)) {
    latencies.push(at - started.get(to));
    started.delete(to);
  }
}
if (latencies.length === 0) {
  process.stderr.write(`no request and answer on port ${port} in the capture\n`);
  process.exit(1);
}
latencies.sort((a, b) => a - b);
const at = (/** @type {number} */ p) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
const figures = [50, 90, 99, 99.5, 99.9].map((p) => `p${p} ${at(p)?.toFixed(2)}`).join(", ");
console.log(`${latencies.length} requests on the wire (ms): ${figures}, max ${latencies.at(-1)?.toFixed(1)}`);
