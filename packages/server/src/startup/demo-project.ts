import type { Storage } from "@kopek/core";
import type { Result } from "neverthrow";
import { createProjectWithKey, type ProjectWithKey } from "./project-setup.js";

/** The project a newcomer gets on memory storage with no projects file (API.md 8). */
export async function createDemoProject(storage: Storage): Promise<Result<ProjectWithKey, string>> {
  const created = await createProjectWithKey(storage, {
    name: "demo",
    provider: { kind: "sandbox", storedMethodCharge: true },
  });
  return created.mapErr((error) => `cannot create the demo project: ${error.message}`);
}

/** What is printed once at start: the demo key and a curl line that creates an invoice (201). */
export function demoBanner(baseUrl: string, apiKey: string): string {
  const body = JSON.stringify({ amount: { amount: "149900", currency: "RUB" } });
  const curl = [
    `curl -sS -X POST ${baseUrl}/v1/invoices`,
    `-H 'Authorization: Bearer ${apiKey}'`,
    "-H 'Idempotency-Key: demo-1'",
    "-H 'Content-Type: application/json'",
    `-d '${body}'`,
  ].join(" ");
  return [
    "",
    "Kopek is running on memory storage with a demo project (nothing is kept after a restart).",
    `Demo API key (shown only this once): ${apiKey}`,
    "Create an invoice:",
    "",
    `  ${curl}`,
    "",
    "",
  ].join("\n");
}
