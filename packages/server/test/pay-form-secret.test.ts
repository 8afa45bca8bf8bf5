import { createMemoryStorage } from "@kopek/storage-memory";
import { describe, expect, it } from "vitest";
import { formTokenSecret } from "../src/pay/form-secret.js";
import { buildTestApp, json } from "./helper.js";
import { createInvoice, openPage, submit } from "./pay-page.js";

const KEY = Buffer.alloc(32, 9);

/** Two instances on one storage behind a load balancer: the form comes from `a`, the post goes to `b`. */
async function servedByAPostedToB(secretA: Uint8Array, secretB: Uint8Array) {
  const storage = createMemoryStorage();
  const a = await buildTestApp({ storage, pageSecret: secretA });
  const b = await buildTestApp({ storage, pageSecret: secretB });
  const id = await createInvoice(a);
  const { token } = await openPage(a, id);
  // The invoice is a's project's: b serves the same canonical URL.
  const posted = await submit({ inject: b.inject, project: a.project }, id, {
    token: token ?? "",
    method: "card",
  });
  const status = json(await a.get(`/v1/invoices/${id}`)).status as string;
  await Promise.all([a.app.close(), b.app.close()]);
  return { posted, status };
}

describe("the payment form token across instances", () => {
  it("instances with the same KOPEK_FORM_SECRET accept each other's tokens", async () => {
    const secret = "s".repeat(40);
    const { posted, status } = await servedByAPostedToB(
      formTokenSecret(secret, null),
      formTokenSecret(secret, KEY),
    );
    // Accepted: on to the provider's checkout. Choosing a method settles nothing (API.md 10.1).
    expect(posted.statusCode).toBe(303);
    expect(String(posted.headers.location)).toMatch(/^https:\/\/pay\.example\.test\/sandbox\/checkout\/pay_/);
    expect(status).toBe("created");
  });

  it("instances sharing only the encryption key (PostgreSQL) accept each other's tokens", async () => {
    const { posted, status } = await servedByAPostedToB(
      formTokenSecret(null, KEY),
      formTokenSecret(null, KEY),
    );
    // Accepted: on to the provider's checkout. Choosing a method settles nothing (API.md 10.1).
    expect(posted.statusCode).toBe(303);
    expect(String(posted.headers.location)).toMatch(/^https:\/\/pay\.example\.test\/sandbox\/checkout\/pay_/);
    expect(status).toBe("created");
  });

  it.each([
    ["different form secrets", formTokenSecret("a".repeat(32), null), formTokenSecret("b".repeat(32), null)],
    ["different encryption keys", formTokenSecret(null, KEY), formTokenSecret(null, Buffer.alloc(32, 8))],
    ["memory storage, no form secret", formTokenSecret(null, null), formTokenSecret(null, null)],
  ])("%s: 403, nothing paid", async (_name, secretA, secretB) => {
    const { posted, status } = await servedByAPostedToB(secretA, secretB);
    expect(posted.statusCode).toBe(403);
    expect(status).toBe("created");
  });

  it("the derived secret is never the encryption key itself", () => {
    expect(Buffer.from(formTokenSecret(null, KEY)).equals(KEY)).toBe(false);
    expect(formTokenSecret(null, KEY)).toHaveLength(32);
  });
});
