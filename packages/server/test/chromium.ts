import { chromium } from "playwright-core";

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
