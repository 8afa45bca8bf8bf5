import { createKopek, generateApiKey, hashApiKey, type Project } from "@kopek/core";
import { createSandboxProvider } from "@kopek/provider-sandbox";
import { createMemoryStorage } from "@kopek/storage-memory";

const storage = createMemoryStorage();
const [charging, notCharging] = [
  createSandboxProvider(),
  createSandboxProvider({ storedMethodCharge: false }),
];
// This example makes only sandbox projects; a real embedding would also handle the other kinds.
const providerFor = (project: Project) =>
  project.provider.kind === "sandbox" && project.provider.storedMethodCharge ? charging : notCharging;
const kopek = createKopek({ storage, providerFor, publicUrl: "https://pay.example.com" });

async function addProject(storedMethodCharge: boolean): Promise<string> {
  const [projectId, apiKey, createdAt] = [crypto.randomUUID(), generateApiKey(), new Date()];
  // Storage answers with a Result, never a throw: a failed save must be checked, not awaited away.
  const saved = await storage
    .saveProject({
      id: projectId,
      name: "shop",
      provider: { kind: "sandbox", storedMethodCharge },
      createdAt,
    })
    .andThen(() =>
      storage.addApiKey({
        id: crypto.randomUUID(),
        projectId,
        sha256: hashApiKey(apiKey),
        createdAt,
        revokedAt: null,
      }),
    );
  if (saved.isErr()) throw new Error(`cannot save the project: ${saved.error.message}`);
  return apiKey;
}

const post = (apiKey: string, url: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  kopek.handle({
    method: "POST",
    url,
    headers: {
      authorization: `Bearer ${apiKey}`,
      "idempotency-key": idempotencyKey,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });

const [shop, invoicesOnly] = [await addProject(true), await addProject(false)];
const amount = { amount: "149900", currency: "RUB" };
const subscription = {
  amount,
  period: { unit: "month", count: 1 },
  method: "card",
  providerMethodRef: "pm_sandbox_1",
};

function show(label: string, response: { status: number; body: string }): void {
  const body = JSON.parse(response.body);
  console.log(`${label}: ${response.status} ${body.code ?? body.status}`);
}

show("subscription", await post(shop, "/v1/subscriptions", subscription, "sub-1"));
show("subscription replay", await post(shop, "/v1/subscriptions", subscription, "sub-1"));
show("invoice", await post(shop, "/v1/invoices", { amount }));
show(
  "subscription without stored-method charges",
  await post(invoicesOnly, "/v1/subscriptions", subscription),
);
