import { describe, expect, it } from "vitest";
import { parseWrkOutput } from "./wrk.js";

// Reports as wrk 4.1 prints them with --latency (the second one shortened to the lines read).
const REFUSED_PATH = `Running 1s test @ http://127.0.0.1:4998/nope
  1 threads and 5 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.48ms    2.79ms  36.74ms   95.77%
    Req/Sec     5.06k     2.33k    8.36k    70.00%
  Latency Distribution
     50%  793.00us
     75%    1.33ms
     90%    2.60ms
     99%   16.91ms
  5051 requests in 1.00s, 1.22MB read
  Non-2xx or 3xx responses: 5051
Requests/sec:   5038.35
Transfer/sec:      1.22MB
`;

const SLOW_WITH_ERRORS = `  Latency Distribution
     50%   10.45ms
     75%   12.94ms
     90%   18.37ms
     99%    1.02s
  34074 requests in 8.01s, 36.04MB read
  Socket errors: connect 0, read 2, write 1, timeout 7
Requests/sec:   4256.27
`;

describe("parseWrkOutput", () => {
  it("reads requests, duration, p50/p99 in ms whatever wrk's unit, and the non-2xx count", () => {
    expect(parseWrkOutput(REFUSED_PATH)).toEqual({
      completed: 5051,
      seconds: 1,
      p50Ms: 0.793,
      p99Ms: 16.91,
      non2xx: 5051,
      errors: 0,
    });
  });

  it("counts every socket error and reads a p99 given in seconds", () => {
    const figures = parseWrkOutput(SLOW_WITH_ERRORS);
    expect(figures).toMatchObject({ completed: 34074, seconds: 8.01, p50Ms: 10.45, non2xx: 0, errors: 10 });
    expect(figures.p99Ms).toBeCloseTo(1020, 6);
  });

  it("refuses a report it cannot read (wrk failed to connect)", () => {
    expect(() => parseWrkOutput("unable to connect to 127.0.0.1:4997 Connection refused\n")).toThrow(
      /cannot read wrk's report/,
    );
  });
});
