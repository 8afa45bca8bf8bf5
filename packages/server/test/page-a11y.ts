/// <reference lib="dom" />
// The probe below runs in the browser: DOM types for it (the package itself still runs on Node).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** What an accessibility pass finds wrong on a page: each list empty when all is well. */
export interface A11yFindings {
  /** Text whose colour has less than 4.5:1 contrast on the background behind it (WCAG AA). */
  readonly lowContrast: string[];
  /** Buttons, links and visible form fields without an accessible name. */
  readonly unnamed: string[];
  /** `<script>` elements: the page works without JavaScript and carries none. */
  readonly scripts: number;
  readonly lang: string | null;
}

/**
 * Runs in the page (through the DevTools protocol, so the page's CSP does not stop it): computes
 * each text-bearing element's contrast against the first opaque background behind it.
 */
export function a11yFindings(page: Page): Promise<A11yFindings> {
  return page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = (c: number[]) => {
      const [r = 0, g = 0, b = 0] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element | null): number[] => {
      for (let e = el; e !== null; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c[3] ?? 0) > 0) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const lowContrast: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent?.trim());
      if (!own) continue;
      const fg = lum(rgb(getComputedStyle(el).color));
      const bg = lum(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      if (ratio < 4.5) lowContrast.push(`${el.tagName} ${ratio.toFixed(2)}: ${el.textContent}`);
    }
    const named = (el: Element) =>
      Boolean(
        el.getAttribute("aria-label")?.trim() ||
          el.textContent?.trim() ||
          (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
          el.closest("label"),
      );
    const interactive = document.querySelectorAll("button, a, select, textarea, input:not([type=hidden])");
    const unnamed = Array.from(interactive)
      .filter((el) => !named(el))
      .map((el) => el.outerHTML);
    return {
      lowContrast,
      unnamed,
      scripts: document.querySelectorAll("script").length,
      lang: document.documentElement.getAttribute("lang"),
    };
  });
}

/** The outline of whatever has the keyboard's focus, after pressing Tab `times` times. */
export async function focusOutline(page: Page, times = 1) {
  for (let i = 0; i < times; i += 1) await page.keyboard.press("Tab");
  return page.evaluate(() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return null;
    const style = getComputedStyle(el);
    return {
      text: el.textContent?.trim() ?? "",
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
    };
  });
}

/** One thing axe-core found wrong, as a line for a test's failure message. */
export type AxeFinding = string;

/**
 * axe-core's serious and critical violations on the page (WCAG 2.x A and AA rules and axe's best
 * practices): a check we did not write, beside `a11yFindings`. axe's source is evaluated through the
 * DevTools protocol, so the page's CSP (no script) does not stop it and the page itself carries none.
 */
export async function axeSeriousFindings(page: Page): Promise<AxeFinding[]> {
  const source = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: AxeApi }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
}

interface AxeApi {
  run(
    context: Document,
    options: { readonly resultTypes: readonly string[] },
  ): Promise<{
    readonly violations: readonly {
      readonly id: string;
      readonly impact: string | null;
      readonly help: string;
      readonly nodes: readonly { readonly target: readonly string[] }[];
    }[];
  }>;
}
