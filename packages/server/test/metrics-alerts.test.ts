import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { appAfterTraffic, exposedNames } from "./metrics-scrape.js";
import { metricNames } from "./promql-names.js";
import { promtool, requirePromtool } from "./promtool.js";

// Issue 42 part 2: the alert rules shipped in docs/ are valid Prometheus rules, each proven to fire on
// a series that should trigger it (docs/prometheus-alerts.test.yml), and name only series a real
// /metrics scrape exposes.
const RULES = fileURLToPath(new URL("../../../docs/prometheus-alerts.yml", import.meta.url));
const RULE_TESTS = fileURLToPath(new URL("../../../docs/prometheus-alerts.test.yml", import.meta.url));

interface Rule {
  readonly alert: string;
  readonly expr: string;
}

/**
 * The rules of our file (no YAML library in this package): each `- alert:` and its `expr:`, inline
 * or a `|` block (the lines indented under it).
 */
function readRules(text: string): Rule[] {
  const lines = text.split("\n");
  const found: Rule[] = [];
  lines.forEach((line, i) => {
    const alert = /^\s*- alert: (\S+)$/.exec(line)?.[1];
    if (alert === undefined) return;
    const at = lines.findIndex((l, j) => j > i && /^\s*expr:/.test(l));
    const head = lines[at] ?? "";
    const inline = /^\s*expr: (?!\|)(.+)$/.exec(head)?.[1];
    if (inline !== undefined) {
      found.push({ alert, expr: inline });
      return;
    }
    const indent = (head.match(/^\s*/)?.[0].length ?? 0) + 2;
    const block: string[] = [];
    for (const l of lines.slice(at + 1)) {
      if ((l.match(/^\s*/)?.[0].length ?? 0) < indent || l.trim() === "") break;
      block.push(l.trim());
    }
    found.push({ alert, expr: block.join(" ") });
  });
  return found;
}
const rules = readRules(readFileSync(RULES, "utf8"));

it("promtool check rules accepts docs/prometheus-alerts.yml", ({ skip }) => {
  requirePromtool(skip);
  const checked = promtool(["check", "rules", RULES]);
  expect(checked.stderr).toBe("");
  expect(checked.status).toBe(0);
  expect(checked.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
});

it("promtool test rules: every alert fires on the series that should trigger it", ({ skip }) => {
  requirePromtool(skip);
  const tested = promtool(["test", "rules", RULE_TESTS]);
  expect({ status: tested.status, output: tested.stdout + tested.stderr }).toMatchObject({ status: 0 });
  expect(tested.stdout).toContain("SUCCESS");
  // Each alert of the rules file has a test that expects it to fire.
  const cases = readFileSync(RULE_TESTS, "utf8");
  for (const rule of rules)
    expect(cases).toMatch(new RegExp(`alertname: ${rule.alert}\\n\\s+exp_alerts:\\n`));
});

it("the alerts are the five the issue asks for, over series a real scrape exposes", async () => {
  expect(rules.map((r) => r.alert).sort()).toEqual([
    "KopekProviderAmountMismatch",
    "KopekProviderErrorRate",
    "KopekReconciliationBacklog",
    "KopekWebhookOutboxBacklog",
    "KopekWorkerStalled",
  ]);
  expect([...new Set(rules.flatMap((r) => [...metricNames(r.expr)]))].sort()).toEqual([
    "kopek_pending_payments",
    "kopek_provider_amount_mismatch_total",
    "kopek_provider_call_duration_seconds_count",
    "kopek_webhook_outbox_oldest_age_seconds",
    "kopek_worker_last_success_timestamp_seconds",
  ]);
  const app = await appAfterTraffic("memory");
  try {
    const exposed = exposedNames(await app.scrape());
    for (const rule of rules) {
      const names = [...metricNames(rule.expr)];
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(exposed, `${rule.alert}: ${name}`).toContain(name);
    }
  } finally {
    await app.close();
  }
}, 60_000);
