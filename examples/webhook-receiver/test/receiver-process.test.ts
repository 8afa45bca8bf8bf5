import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateWebhookSecret, signWebhook } from "@kopek/core";
import { expect, it } from "vitest";

const cwd = fileURLToPath(new URL("..", import.meta.url));

/** `pnpm start` as the README runs it: receiver.ts through tsx, with only `env` set. */
function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--conditions=dev-source", "--import", "tsx", "receiver.ts"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const printed = async (pattern: RegExp) => {
    for (let i = 0; i < 300 && !pattern.test(stdout); i += 1) await new Promise((r) => setTimeout(r, 50));
    return stdout.match(pattern);
  };
  return { child, exited, printed, out: () => ({ stdout, stderr }) };
}

it("refuses to start without a secret: one clear line, a non-zero exit code", async () => {
  for (const env of [{}, { KOPEK_WEBHOOK_SECRET: "  " }, { KOPEK_WEBHOOK_SECRET: "hunter2" }]) {
    const receiver = start(env);
    expect(await receiver.exited).toBe(2);
    expect(receiver.out()).toEqual({
      stdout: "",
      stderr:
        "webhook-receiver: set KOPEK_WEBHOOK_SECRET to the endpoint's whsec_… secret (kopek webhooks add prints it)\n",
    });
  }
});

it("listens on PORT and prints each verified event", { timeout: 30_000 }, async () => {
  const secret = generateWebhookSecret();
  const receiver = start({ KOPEK_WEBHOOK_SECRET: secret, PORT: "0" });
  try {
    const url = (await receiver.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/))?.[1] ?? "";
    expect(url).not.toMatch(/:4000$/);
    const body = JSON.stringify({
      type: "invoice.paid",
      timestamp: new Date().toISOString(),
      data: { id: "x" },
    });
    const headers = signWebhook(secret, "01890000-0000-7000-8000-000000000001", new Date(), body);
    expect((await fetch(url, { method: "POST", headers, body })).status).toBe(204);
    expect(await receiver.printed(/invoice\.paid \{"id":"x"\}/)).not.toBeNull();
  } finally {
    receiver.child.kill("SIGTERM");
    await receiver.exited;
  }
});
