import type { Registry } from "prom-client";

/**
 * The two per-request series (`kopek_http_requests_total` and `kopek_http_request_duration_seconds`),
 * counted in plain numbers and handed to prom-client only when `/metrics` is scraped. Through
 * prom-client's own Counter and Histogram each request cost about 0.8 µs (its children hash their
 * labels on every call), 2 % of a replay's whole cost; this costs a Map lookup and three additions.
 * The registry formats them like any other metric: each is an object with `get()`, as prom-client's
 * Registry asks of what it holds.
 */
export interface RequestSeries {
  /** One request answered: its method, route pattern (null: none matched), status and duration. */
  observe(method: string, route: string | null, status: number, seconds: number): void;
}

interface Series {
  readonly labels: { readonly method: string; readonly route: string; readonly status: string };
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative: [i] counts those in (bounds[i-1], bounds[i]]; the last, +Inf. */
  readonly perBucket: number[];
}

interface MetricValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName?: string;
}

export function requestSeries(
  registry: Registry,
  names: { readonly count: string; readonly duration: string },
  help: { readonly count: string; readonly duration: string },
  bounds: readonly number[],
): RequestSeries {
  // One entry per method, route pattern and status: a bounded set (routes are patterns, never URLs).
  const all = new Map<string, Series>();

  registry.registerMetric({
    name: names.count,
    help: help.count,
    type: "counter",
    aggregator: "sum",
    get: () => ({
      name: names.count,
      help: help.count,
      type: "counter",
      aggregator: "sum",
      values: [...all.values()].map(({ labels, count }) => ({ labels, value: count })),
    }),
  } as unknown as Parameters<Registry["registerMetric"]>[0]);

  registry.registerMetric({
    name: names.duration,
    help: help.duration,
    type: "histogram",
    aggregator: "sum",
    get: () => ({
      name: names.duration,
      help: help.duration,
      type: "histogram",
      aggregator: "sum",
      values: [...all.values()].flatMap((series) => histogramValues(names.duration, series, bounds)),
    }),
  } as unknown as Parameters<Registry["registerMetric"]>[0]);

  return {
    observe(method, route, status, seconds) {
      const name = `${method} ${route ?? ""} ${status}`;
      let series = all.get(name);
      if (series === undefined) {
        const labels = { method, route: route ?? "unmatched", status: String(status) };
        series = { labels, count: 0, sum: 0, perBucket: new Array<number>(bounds.length + 1).fill(0) };
        all.set(name, series);
      }
      series.count += 1;
      series.sum += seconds;
      let bucket = 0;
      while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket++;
      series.perBucket[bucket] = (series.perBucket[bucket] as number) + 1;
    },
  };
}

// A histogram's lines as Prometheus reads them: cumulative `_bucket`s by `le` (ending at +Inf), `_sum`,
// `_count`; `le` first, as prom-client writes its own histograms.
function histogramValues(name: string, series: Series, bounds: readonly number[]): MetricValue[] {
  const values: MetricValue[] = [];
  let cumulative = 0;
  for (let i = 0; i <= bounds.length; i++) {
    cumulative += series.perBucket[i] as number;
    const le = i < bounds.length ? (bounds[i] as number) : "+Inf";
    values.push({ metricName: `${name}_bucket`, labels: { le, ...series.labels }, value: cumulative });
  }
  values.push({ metricName: `${name}_sum`, labels: series.labels, value: series.sum });
  values.push({ metricName: `${name}_count`, labels: series.labels, value: series.count });
  return values;
}
