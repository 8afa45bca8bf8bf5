import { createRequire } from "node:module";

// Imported (--import) into a kopek process by cli-cold-start.test.ts: at exit, one stderr line names the
// CommonJS packages the process loaded (Fastify, pg, prom-client, ioredis and rate-limiter-flexible are).
const loaded = createRequire(import.meta.url).cache;

process.on("exit", () => {
  const names = new Set<string>();
  for (const file of Object.keys(loaded)) {
    const name = file.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1];
    if (name !== undefined) names.add(name);
  }
  process.stderr.write(`loaded packages: ${[...names].sort().join(" ")}\n`);
});
