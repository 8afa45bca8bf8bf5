import { createServer, type Server } from "node:http";
import { resolvingTo } from "@kopek/outbound";
import { afterAll, describe, expect, it } from "vitest";
import { parseProjectsFile } from "../src/startup/projects-file.js";
import { createGuardedTransport } from "../src/webhooks/guarded-transport.js";
import { webhookUrlProblem } from "../src/webhooks/webhook-url-policy.js";

const STRICT = { allowLocal: false };
const LOCAL = { allowLocal: true };

describe("webhook URLs, as configured", () => {
  it.each([
    "http://hooks.example.com/kopek",
    "https://127.0.0.1/x",
    "https://127.1.2.3/x",
    "https://localhost/x",
    "https://api.localhost/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://2130706433/x",
    "https://0x7f.0.0.1/x",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fe80::1]/x",
    "https://10.0.0.5/x",
    "https://172.16.3.4/x",
    "https://192.168.1.1/x",
    "https://[fd00::1]/x",
    "https://100.64.0.1/x",
    "https://0.0.0.0/x",
    "https://user:pass@hooks.example.com/x",
    "ftp://hooks.example.com/x",
  ])("refuses %s by default", (url) => {
    expect(webhookUrlProblem(url, STRICT)).not.toBeNull();
  });

  it("accepts https to a public name or address", () => {
    expect(webhookUrlProblem("https://hooks.example.com/kopek", STRICT)).toBeNull();
    expect(webhookUrlProblem("https://93.184.216.34:8443/x", STRICT)).toBeNull();
  });

  it("with the development opt-in allows loopback, over http too, and still nothing else inside", () => {
    for (const url of ["http://127.0.0.1:8080/h", "http://localhost:3000/h", "https://[::1]/h"])
      expect(webhookUrlProblem(url, LOCAL), url).toBeNull();
    for (const url of ["http://10.0.0.5/h", "https://169.254.169.254/", "http://hooks.example.com/"])
      expect(webhookUrlProblem(url, LOCAL), url).not.toBeNull();
  });

  it("a projects file naming an endpoint inside the network is refused at start", () => {
    const file = (url: string) =>
      JSON.stringify({
        projects: [
          {
            id: "0190a8e4-5b6c-7d8e-9f01-23456789abcd",
            name: "shop",
            provider: { kind: "sandbox" },
            webhooks: [{ url, secret: `whsec_${Buffer.alloc(24, 1).toString("base64")}` }],
          },
        ],
      });
    const saved = process.env.KOPEK_WEBHOOKS_ALLOW_LOCAL;
    process.env.KOPEK_WEBHOOKS_ALLOW_LOCAL = "off";
    try {
      expect(parseProjectsFile(file("https://169.254.169.254/hook"))._unsafeUnwrapErr()).toMatch(
        /webhooks\[0\]\.url.*link/,
      );
      expect(parseProjectsFile(file("http://127.0.0.1:9/hook")).isErr()).toBe(true);
      expect(parseProjectsFile(file("https://hooks.example.com/hook")).isOk()).toBe(true);
    } finally {
      process.env.KOPEK_WEBHOOKS_ALLOW_LOCAL = saved;
    }
  });
});

// A receiver on this machine counting what reaches it; names are "resolved" by a fake DNS, so nothing
// is ever sent off this machine.
let hits = 0;
let answer: (response: import("node:http").ServerResponse) => void = (response) => response.end("ok");
const receiver: Server = createServer((_request, response) => {
  hits++;
  answer(response);
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const port = (receiver.address() as { port: number }).port;
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

const send = (transport: ReturnType<typeof createGuardedTransport>, url: string) =>
  transport.send({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 2000 });

describe("webhook delivery, after DNS", () => {
  it("refuses a public-looking name that resolves to loopback, link-local or private addresses", async () => {
    for (const address of ["127.0.0.1", "169.254.169.254", "10.1.2.3", "::1"]) {
      const transport = createGuardedTransport(STRICT, resolvingTo(address));
      const before = hits;
      const result = await send(transport, `https://hooks.example.com:${port}/kopek`);
      expect(result.kind, address).toBe("failed");
      expect(hits).toBe(before);
    }
  });

  it("even with the development opt-in, a name resolving to the metadata address is refused", async () => {
    const transport = createGuardedTransport(LOCAL, resolvingTo("169.254.169.254"));
    expect((await send(transport, `http://localhost:${port}/kopek`)).kind).toBe("failed");
  });

  it("with the opt-in delivers to loopback; never follows a redirect; gives up after the timeout", async () => {
    const transport = createGuardedTransport(LOCAL);
    const before = hits;
    expect(await send(transport, `http://127.0.0.1:${port}/kopek`)).toEqual({
      kind: "response",
      status: 200,
    });
    answer = (response) => response.writeHead(307, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    expect(await send(transport, `http://127.0.0.1:${port}/kopek`)).toEqual({
      kind: "response",
      status: 307,
    });
    expect(hits).toBe(before + 2);
    answer = () => {}; // never answers
    const slow = await transport.send({
      url: `http://127.0.0.1:${port}/`,
      headers: {},
      body: "{}",
      timeoutMs: 200,
    });
    expect(slow).toEqual({ kind: "failed", reason: "timeout" });
  });

  it("refuses plain http and loopback by default before connecting", async () => {
    const transport = createGuardedTransport(STRICT);
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `https://127.0.0.1:${port}/`,
      "http://hooks.example.com/",
    ]) {
      const result = await send(transport, url);
      expect(result.kind).toBe("failed");
      expect(result.kind === "failed" && result.reason).toMatch(/^refused: /);
    }
    expect(hits).toBe(before);
  });
});
