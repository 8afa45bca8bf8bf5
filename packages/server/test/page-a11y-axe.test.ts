import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { CHROMIUM, withChromium } from "./chromium.js";
import { axeSeriousFindings } from "./page-a11y.js";

// The axe probe the page tests rely on finds what it should: a page with a nameless button and an
// image without alternative text has serious or critical findings, a plain one none.
it.runIf(existsSync(CHROMIUM))(
  "axe finds a nameless button and an image without alt, and nothing on a plain page",
  async () => {
    await withChromium(async (context) => {
      const page = await context.newPage();
      await page.setContent(
        '<html lang="en"><head><title>t</title></head><body><main><img src="data:,"><button></button></main></body></html>',
      );
      const findings = await axeSeriousFindings(page);
      expect(findings.some((f) => f.includes("button-name"))).toBe(true);
      expect(findings.some((f) => f.includes("image-alt"))).toBe(true);
      await page.setContent(
        '<html lang="en"><head><title>t</title></head><body><main><h1>Hello</h1><button>Pay</button></main></body></html>',
      );
      expect(await axeSeriousFindings(page)).toEqual([]);
    });
  },
  30_000,
);
