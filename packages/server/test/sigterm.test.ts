import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "vitest";
import { spawnCli } from "./cli-process.js";

test("SIGTERM during an in-flight request: the request completes, then the process exits 0 within 5 s", async () => {
  const cli = spawnCli(["serve"], { PORT: "0" });
  const [, port] = await cli.waitFor(/"url":"http:\/\/127\.0\.0\.1:(\d+)"/);
  const [, key] = await cli.waitFor(/Demo API key.*: (kopek_\S+)/);

  // The request stays in flight while its body is still arriving: headers now, the body after SIGTERM.
  const body = JSON.stringify({ amount: { amount: "149900", currency: "RUB" } });
  const socket = connect(Number(port), "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString()));
  const closed = new Promise((resolve) => socket.on("close", resolve));
  socket.write(
    "POST /v1/invoices HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
      `Authorization: Bearer ${key}\r\nIdempotency-Key: in-flight\r\nContent-Length: ${body.length}\r\n\r\n` +
      body.slice(0, 10),
  );
  await sleep(300);

  const signalled = Date.now();
  cli.child.kill("SIGTERM");
  await sleep(300);
  expect(cli.child.exitCode).toBeNull(); // still draining the request
  socket.end(body.slice(10));
  await closed;

  expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  expect(await cli.exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(5000);
  expect(cli.stdout()).toContain('"msg":"stopped"');
});
