import fc from "fast-check";
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { requestSeries } from "./request-series.js";

const BOUNDS = [0.001, 0.01, 0.1, 1];
const NAMES = { count: "t_requests_total", duration: "t_request_duration_seconds" };
const HELP = { count: "requests", duration: "durations" };

const observation = fc.record({
  method: fc.constantFrom("GET", "POST"),
  route: fc.constantFrom("/v1/invoices", "/v1/invoices/:id", null),
  status: fc.constantFrom(200, 201, 422),
  // Bounds themselves included: a value equal to a bound falls in that bound's bucket.
  seconds: fc.oneof(fc.constantFrom(...BOUNDS), fc.double({ min: 0, max: 5, noNaN: true })),
});

describe("request series", () => {
  it("scrape exactly as prom-client's own Counter and Histogram would, for any observations", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 40 }), async (observations) => {
        const ours = new Registry();
        const series = requestSeries(ours, NAMES, HELP, BOUNDS);
        const theirs = new Registry();
        const labelNames = ["method", "route", "status"] as const;
        const counter = new Counter({ name: NAMES.count, help: HELP.count, labelNames, registers: [theirs] });
        const histogram = new Histogram({
          name: NAMES.duration,
          help: HELP.duration,
          labelNames,
          buckets: BOUNDS,
          registers: [theirs],
        });
        for (const { method, route, status, seconds } of observations) {
          series.observe(method, route, status, seconds);
          const labels = { method, route: route ?? "unmatched", status: String(status) };
          counter.inc(labels);
          histogram.observe(labels, seconds);
        }
        expect(await ours.metrics()).toBe(await theirs.metrics());
      }),
    );
  });

  it("count a request in the bucket of its duration and every wider one", async () => {
    const registry = new Registry();
    const series = requestSeries(registry, NAMES, HELP, BOUNDS);
    series.observe("POST", "/v1/invoices", 201, 0.005);
    const text = await registry.metrics();
    expect(text).toContain(
      't_request_duration_seconds_bucket{le="0.001",method="POST",route="/v1/invoices",status="201"} 0',
    );
    expect(text).toContain(
      't_request_duration_seconds_bucket{le="0.01",method="POST",route="/v1/invoices",status="201"} 1',
    );
    expect(text).toContain(
      't_request_duration_seconds_bucket{le="+Inf",method="POST",route="/v1/invoices",status="201"} 1',
    );
    expect(text).toContain('t_requests_total{method="POST",route="/v1/invoices",status="201"} 1');
  });
});
