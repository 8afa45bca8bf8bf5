import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { appAfterTraffic, exposedNames } from "./metrics-scrape.js";
import { metricNames } from "./promql-names.js";
import { promtool, requirePromtool } from "./promtool.js";

// Issue 42 part 2: the Grafana dashboard shipped in docs/ checked offline: the fields Grafana's
// dashboard schema requires, every query valid PromQL (promtool, through a rules file), and every
// metric it names one a real /metrics scrape (on PostgreSQL: the pool's series too) exposes.
const DASHBOARD = fileURLToPath(new URL("../../../docs/grafana-dashboard.json", import.meta.url));

interface Target {
  readonly refId: string;
  readonly expr: string;
}
interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { readonly x: number; readonly y: number; readonly w: number; readonly h: number };
  readonly targets?: readonly Target[];
}
const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string }[] };
};
const queries = dashboard.panels.filter((p) => p.type !== "row");
const exprs = queries.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
// Grafana's own variables, as a check outside Grafana reads them.
const asPromQL = (expr: string) =>
  expr.replaceAll("$__rate_interval", "5m").replaceAll("$__interval", "1m").replaceAll("$__range", "1h");

it("has the fields Grafana's dashboard schema requires, and panels laid out on its 24-column grid", () => {
  expect(dashboard.title).toBe("Kopek");
  expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
  expect(Number.isInteger(dashboard.schemaVersion)).toBe(true);
  expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
  expect(dashboard.templating.list).toContainEqual(
    expect.objectContaining({ name: "datasource", type: "datasource" }),
  );
  const ids = dashboard.panels.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(queries.length).toBeGreaterThanOrEqual(15);
  for (const panel of dashboard.panels) {
    expect(typeof panel.title, String(panel.id)).toBe("string");
    expect(["row", "timeseries", "stat"], panel.title).toContain(panel.type);
    const { x, y, w, h } = panel.gridPos;
    for (const n of [x, y, w, h]) expect(Number.isInteger(n), panel.title).toBe(true);
    expect(x + w, panel.title).toBeLessThanOrEqual(24);
    expect(w * h, panel.title).toBeGreaterThan(0);
    if (panel.type === "row") continue;
    expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    const refIds = (panel.targets ?? []).map((t) => t.refId);
    expect(new Set(refIds).size, panel.title).toBe(refIds.length);
    for (const target of panel.targets ?? []) expect(target.expr.trim(), panel.title).not.toBe("");
  }
});

it("names only metrics a real scrape exposes", async () => {
  const app = await appAfterTraffic("postgres");
  try {
    const exposed = exposedNames(await app.scrape());
    const named = new Set<string>();
    for (const { panel, expr } of exprs) {
      const names = metricNames(asPromQL(expr));
      expect(names.size, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        expect(exposed, `${panel}: ${name}`).toContain(name);
        named.add(name);
      }
    }
    // The business series of issue 42 part 2 all have a panel.
    for (const name of [
      "kopek_payments",
      "kopek_invoices",
      "kopek_subscriptions",
      "kopek_dunning_subscriptions",
      "kopek_webhook_outbox_pending_deliveries",
      "kopek_webhook_outbox_oldest_age_seconds",
      "kopek_pending_payments",
      "kopek_renewals_total",
      "kopek_provider_call_duration_seconds_bucket",
      "kopek_provider_amount_mismatch_total",
      "kopek_db_pool_connections",
      "kopek_db_pool_waiting_clients",
      "kopek_worker_last_success_timestamp_seconds",
    ])
      expect(named, name).toContain(name);
  } finally {
    await app.close();
  }
}, 60_000);

it("every query is valid PromQL: promtool check rules accepts them as recording rules", ({ skip }) => {
  requirePromtool(skip);
  const dir = mkdtempSync(join(tmpdir(), "kopek-dashboard-"));
  try {
    const file = join(dir, "dashboard-queries.yml");
    const rules = exprs.map(
      ({ expr }, i) =>
        `      - record: kopek_dashboard_query_${i}\n        expr: ${JSON.stringify(asPromQL(expr))}`,
    );
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join("\n")}\n`);
    const checked = promtool(["check", "rules", file]);
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: "" });
    expect(checked.stdout).toContain(`SUCCESS: ${exprs.length} rules found`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
