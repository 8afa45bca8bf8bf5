import { createKopek } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { openApiPlugin } from "./plugin.js";

describe("openApiPlugin", () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(openApiPlugin, { publicUrl: "http://127.0.0.1:3000" });
    await app.ready();
  });
  afterAll(() => app.close());

  it("serves the document at /openapi.json", async () => {
    const response = await app.inject({ method: "GET", url: "/openapi.json" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.json()).toMatchObject({ openapi: "3.1.0", servers: [{ url: "http://127.0.0.1:3000" }] });
  });

  it("serves a docs page with no inline script or style and a same-origin CSP", async () => {
    const response = await app.inject({ method: "GET", url: "/docs" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["content-security-policy"]).toMatch(/^default-src 'self'/);
    const html = response.body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/);
    expect(html).not.toMatch(/https?:\/\//);

    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((match) => match[1] as string)
      .filter((url) => url !== "data:,"); // the empty favicon, so the browser asks for none
    expect(urls).toContain("/docs/init.js");
    for (const url of urls) {
      const asset = await app.inject({ method: "GET", url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.body.length, url).toBeGreaterThan(0);
    }
  });

  it("points the docs at /openapi.json with Scalar's outside fonts and telemetry off", async () => {
    const init = await app.inject({ method: "GET", url: "/docs/init.js" });
    expect(init.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(init.body).toContain('url: "/openapi.json"');
    expect(init.body).toContain("withDefaultFonts: false");
    expect(init.body).toContain("telemetry: false");
    expect(init.body).not.toContain("proxyUrl");
  });

  it("serves only Scalar's bundle of its package", async () => {
    for (const url of [
      "/docs/package.json",
      "/docs/standalone.js",
      "/docs/js/scalar.js",
      "/docs/../package.json",
    ]) {
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
  });
});

describe("buildApp", () => {
  it("registers the plugin with its publicUrl", async () => {
    const storage = createMemoryStorage();
    const kopek = createKopek({ storage, providerFor: () => createSandboxProvider(), publicUrl: "http://x" });
    const app = await buildApp({ kopek, storage, publicUrl: "https://kopek.example.com" });
    try {
      const response = await app.inject({ method: "GET", url: "/openapi.json" });
      expect(response.statusCode).toBe(200);
      expect(response.json().servers).toEqual([{ url: "https://kopek.example.com" }]);
      expect((await app.inject({ method: "GET", url: "/docs" })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
