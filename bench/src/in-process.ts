import { randomUUID } from "node:crypto";
import { createKopek, generateApiKey, hashApiKey } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";
import { INVOICE_BODY } from "./bodies.mjs";

export interface InProcessResult {
  readonly opsPerSec: number;
  readonly microsPerOp: number;
  readonly ops: number;
  /** Answers other than 201 (must be 0). */
  readonly failures: number;
}

/** `createKopek(...).handle(...)` creating invoices one after another: the core's cost without HTTP. */
export async function measureInProcess(durationSeconds: number): Promise<InProcessResult> {
  const storage = createMemoryStorage();
  const provider = createSandboxProvider();
  const kopek = createKopek({ storage, providerFor: () => provider, publicUrl: "https://pay.example.com" });
  const project = {
    id: randomUUID(),
    name: "bench",
    provider: { kind: "sandbox", storedMethodCharge: true },
    createdAt: new Date(),
  } as const;
  const apiKey = generateApiKey();
  await storage.saveProject(project);
  await storage.addApiKey({
    id: randomUUID(),
    projectId: project.id,
    sha256: hashApiKey(apiKey),
    createdAt: new Date(),
    revokedAt: null,
  });
  // The body arrives as the bytes an HTTP framework read; Kopek parses it.
  const authorization = `Bearer ${apiKey}`;
  const prefix = `in-process-${randomUUID()}-`;
  let sequence = 0;
  let failures = 0;
  const once = async () => {
    const response = await kopek.handle({
      method: "POST",
      url: "/v1/invoices",
      headers: {
        authorization,
        "idempotency-key": `${prefix}${sequence++}`,
        "content-type": "application/json",
      },
      body: INVOICE_BODY,
    });
    if (response.status !== 201) failures += 1;
  };

  // Warm up: let the JIT optimise the path before it is timed.
  const warmUntil = performance.now() + Math.min(2000, durationSeconds * 200);
  while (performance.now() < warmUntil) await once();

  failures = 0;
  let ops = 0;
  const start = performance.now();
  const end = start + durationSeconds * 1000;
  while (performance.now() < end) {
    await once();
    ops += 1;
  }
  const elapsedMs = performance.now() - start;
  return { opsPerSec: (ops * 1000) / elapsedMs, microsPerOp: (elapsedMs * 1000) / ops, ops, failures };
}
