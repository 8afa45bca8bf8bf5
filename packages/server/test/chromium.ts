import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium, which .ci/run installs; browser tests are skipped where it is missing. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Chromium with a fresh profile in `userDataDir`, a phone-sized window and nothing in the
 * background; `locale` is the language it asks pages for (Accept-Language).
 */
export function launchChromium(userDataDir: string, locale = "en-US") {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    viewport: { width: 390, height: 760 },
    locale,
  });
}

/**
 * Runs `use` with a headless Chromium of its own (a fresh profile), then closes it and removes the
 * profile, whatever happened; `locale` as for {@link launchChromium}.
 */
export async function withChromium<T>(
  use: (context: BrowserContext) => Promise<T>,
  locale = "en-US",
): Promise<T> {
  const userDataDir = await mkdtemp(join(tmpdir(), "kopek-chromium-"));
  try {
    const context = await launchChromium(userDataDir, locale);
    try {
      return await use(context);
    } finally {
      await context.close();
    }
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
}
