import { expect, test } from "vitest";
import { createLogger, describeCause, redactSecrets } from "./logger.js";

test("redactSecrets hides card numbers and API keys", () => {
  const key = "kopek_0123456789ABCDEFGHIJKLMNOPQRSTUVabcdef";
  const text = redactSecrets(`charge 4111-1111-1111-1111 with ${key} failed`);
  expect(text).toBe("charge [REDACTED] with kopek_[REDACTED] failed");
});

test("redactSecrets hides a YooKassa secret key", () => {
  const secretKey = `live_${"A1b2-C3d4_".repeat(4)}xyz`;
  expect(redactSecrets(`auth 506751:${secretKey} refused`)).toBe("auth 506751:live_[REDACTED] refused");
});

test("an error is logged with redacted message, stack and cause, and nothing else it carries", () => {
  const error = Object.assign(
    new Error("card 4111111111111111 refused", { cause: { message: "via 5500 0000 0000 0004" } }),
    {
      providerMethodRef: "tok_secret",
    },
  );
  const described = JSON.stringify(describeCause(error));
  expect(described).not.toMatch(/4111111111111111|5500 0000|tok_secret/);
  expect(described).toContain("refused");
});

test("an Authorization header or a method token that reaches the logger is censored", () => {
  const lines: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
  logger.info(
    { headers: { authorization: "Bearer kopek_x" }, request: { providerMethodRef: "tok_y" } },
    "oops",
  );
  expect(lines.join("")).not.toMatch(/kopek_x|tok_y/);
});

test("a provider's secret key that reaches the logger with a project or its settings is censored", () => {
  const lines: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
  const provider = { kind: "yookassa", shopId: "506751", secretKey: "s3cr3t-a" };
  logger.info({ secretKey: "s3cr3t-b", provider, project: { id: "p", provider } }, "oops");
  expect(lines.join("")).not.toMatch(/s3cr3t/);
  expect(lines.join("")).toContain("506751");
});
