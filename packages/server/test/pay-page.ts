import type { LightMyRequestResponse } from "fastify";
import { json, type TestApp } from "./helper.js";

/** Where `inject` says a request comes from: a same-origin form post carries this Origin. */
export const SELF = "http://localhost:80";

/** Creates an invoice over the API and returns its id. */
export async function createInvoice(t: TestApp, body: Record<string, unknown> = {}): Promise<string> {
  const created = await t.post("/v1/invoices", { amount: { amount: "149900", currency: "RUB" }, ...body });
  if (created.statusCode !== 201) throw new Error(`invoice not created: ${created.body}`);
  return json(created).id as string;
}

/** The page as a browser gets it, and the CSRF token its form carries (null when it has no form). */
export async function openPage(t: TestApp, id: string) {
  const page = await t.inject({ method: "GET", url: `/pay/${id}` });
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? null;
  return { page, token };
}

/** Submits the payment form: `choice` is e.g. `pay:card` or `decline:card`. */
export function submit(
  t: TestApp,
  id: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: SELF },
): Promise<LightMyRequestResponse> {
  return t.inject({
    method: "POST",
    url: `/pay/${id}`,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}
