import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "./chromium.js";
import { startPayServer } from "./pay-fixture.js";

const ARTIFACTS = new URL("../../../test-artifacts/", import.meta.url);

// Runs where Chromium is installed (.ci/run installs it); elsewhere reported as skipped.
it.runIf(existsSync(CHROMIUM))(
  "/docs renders the API's title and its operations offline: every request the page makes stays on the server",
  async () => {
    const server = await startPayServer("http://127.0.0.1:9/hooks");
    const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
    const context = await launchChromium(userDataDir);
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      const requests: string[] = [];
      const refused: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("requestfailed", (request) => refused.push(request.url()));
      page.on("console", (m) => m.type() === "error" && refused.push(m.text()));
      await page.goto(`${server.url}/docs`);
      await page.getByRole("heading", { name: "Kopek API" }).first().waitFor({ timeout: 20_000 });
      // An operation, as rendered (the sidebar or the operation's own heading), not just in the DOM.
      await page
        .getByText("Create a subscription: charge its first cycle, or take a paid invoice's payment as it")
        .filter({ visible: true })
        .first()
        .waitFor({ timeout: 20_000 });
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL("api-docs.png", ARTIFACTS).pathname });

      const origin = new URL(server.url).origin;
      const elsewhere = requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:"));
      expect(elsewhere).toEqual([]);
      expect(requests).toContain(`${origin}/openapi.json`);
      // Nothing was even tried and refused by the CSP: the configuration keeps Scalar at home.
      expect(refused).toEqual([]);
    } finally {
      await context.close();
      await server.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
  60_000,
);
