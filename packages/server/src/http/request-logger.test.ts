import { Writable } from "node:stream";
import { pino } from "pino";
import { expect, test, vi } from "vitest";
import { lazyRequestLoggers } from "./request-logger.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

test("a line written through the request's logger carries its bindings, at every level", async () => {
  const { logger, lines } = capture();
  const log = lazyRequestLoggers(logger, { requestId: "req-1" }, {});
  log.warn({ code: "x" }, "first");
  log.error("second %s", "formatted");
  log.debug("below the level");
  log.child({ step: "inner" }).info("third");
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.map(({ requestId, msg, code, step }) => ({ requestId, msg, code, step }))).toEqual([
    { requestId: "req-1", msg: "first", code: "x", step: undefined },
    { requestId: "req-1", msg: "second formatted", code: undefined, step: undefined },
    { requestId: "req-1", msg: "third", code: undefined, step: "inner" },
  ]);
});

test("no pino child is built for a request that logs nothing; one is built once for one that does", () => {
  const { logger } = capture();
  const child = vi.spyOn(logger, "child");
  const log = lazyRequestLoggers(logger, { requestId: "req-2" }, {});
  expect(log.level).toBe("info");
  expect(child).not.toHaveBeenCalled();
  log.info("one");
  log.info("two");
  expect(child).toHaveBeenCalledTimes(1);
  log.level = "error";
  expect(log.level).toBe("error");
  expect(logger.level).toBe("info");
});
