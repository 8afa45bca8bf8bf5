import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { createLogger } from "./logger.js";

// LOG_FORMAT (issue 42 part 5): JSON lines by default; `pretty` for a developer's terminal, with the
// same redaction.
async function linesOf(format: "json" | "pretty"): Promise<string> {
  const out = new PassThrough();
  let text = "";
  out.on("data", (chunk) => (text += String(chunk)));
  const logger = createLogger({ format, destination: out });
  logger.info({ project: { secretKey: "sk_live_very_secret" }, paymentId: "p-1" }, "payment settled");
  logger.flush();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return text;
}

describe("LOG_FORMAT", () => {
  it("json: one JSON object a line, the secret redacted", async () => {
    const text = await linesOf("json");
    const line = JSON.parse(text.trim());
    expect(line).toMatchObject({ level: 30, msg: "payment settled", paymentId: "p-1" });
    expect(line.project.secretKey).toBe("[REDACTED]");
  });

  it("pretty: a line a person reads (time, level, message, then the fields), the secret redacted as well", async () => {
    const text = await linesOf("pretty");
    expect(() => JSON.parse(text.trim())).toThrow();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: payment settled\n/);
    expect(text).toContain('paymentId: "p-1"');
    expect(text).toContain("[REDACTED]");
    expect(text).not.toContain("sk_live_very_secret");
    expect(text).not.toMatch(/pid|hostname/);
  });

  it("takes json or pretty, json by default, and refuses anything else in one line", () => {
    expect(loadConfig({})._unsafeUnwrap().logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "pretty" })._unsafeUnwrap().logFormat).toBe("pretty");
    expect(loadConfig({ LOG_FORMAT: "text" })._unsafeUnwrapErr()).toContain(
      "LOG_FORMAT must be json or pretty",
    );
  });
});
