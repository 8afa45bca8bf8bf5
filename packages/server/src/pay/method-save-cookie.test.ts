import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pendingSaveCookie, readPendingSave } from "./method-save-cookie.js";

const save = fc.record({
  projectId: fc.uuid(),
  subscriptionId: fc.uuid(),
  updateId: fc.uuid(),
  saveId: fc.uuid(),
});

describe("the payer's pending-save cookie (API.md 11.5, T-Bank's fixed return page)", () => {
  it("reads back what it wrote, among other cookies, under any public URL", () => {
    fc.assert(
      fc.property(
        save,
        fc.constantFrom("https://pay.example", "http://127.0.0.1:3000", "https://x.test/kopek"),
        (s, url) => {
          const written = pendingSaveCookie(s, url);
          const pair = written.split(";")[0] ?? "";
          expect(readPendingSave(`theme=dark; ${pair}; other=1`)).toEqual(s);
          expect(written.includes("; Secure")).toBe(url.startsWith("https:"));
          expect(written).toContain(`Path=${new URL(url).pathname.replace(/\/$/, "")}/method;`);
          expect(written).toContain("HttpOnly; SameSite=Lax");
        },
      ),
    );
  });

  it("reads nothing from a cookie Kopek did not write", () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const read = readPendingSave(`kopek_method_save=${value}`);
        // Only four dotted lowercase UUIDs name a save; anything else (paths, markup, NUL) names none.
        if (read !== null) expect(Object.values(read).join(".")).toBe(value);
      }),
    );
    for (const header of [undefined, "", "kopek_method_save=", "kopek_method_save=../../etc", "a=b"])
      expect(readPendingSave(header)).toBeNull();
  });
});
