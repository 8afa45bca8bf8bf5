import { json, type TestApp } from "./helper.js";

/** Where `inject` says a request comes from: a same-origin form post carries this Origin. */
export const SELF = "http://localhost:80";

/** Creates an invoice over the API and returns its id. */
export async function createInvoice(t: TestApp, body: Record<string, unknown> = {}): Promise<string> {
  const created = await t.post("/v1/invoices", { amount: { amount: "149900", currency: "RUB" }, ...body });
  if (created.statusCode !== 201) throw new Error(`invoice not created: ${created.body}`);
  return json(created).id as string;
}

/**
 * What the payer's round trip needs of a server: an in-process app (`inject`) or a process
 * (`processPages`). With its `project` (a test app), pages are opened at their canonical URL,
 * `/pay/{projectId}/{invoiceId}`; without, at the legacy `/pay/{invoiceId}`.
 */
export interface PageClient {
  readonly project?: { readonly id: string };
  inject(request: {
    method: "GET" | "POST";
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;
}

/** Where `t` serves the page of invoice `id` (PageClient says which form). */
export const pagePath = (t: PageClient, id: string) =>
  t.project === undefined ? `/pay/${id}` : `/pay/${t.project.id}/${id}`;

/** The page as a browser gets it, and the CSRF token its form carries (null when it has no form). */
export async function openPage(t: PageClient, id: string) {
  const page = await t.inject({ method: "GET", url: pagePath(t, id) });
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? null;
  return { page, token };
}

/** Submits the payment form: `method` (card, sbp) and the page's `token`. */
export function submit<T extends PageClient>(
  t: T,
  id: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: SELF },
): ReturnType<T["inject"]> {
  return t.inject({
    method: "POST",
    url: pagePath(t, id),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  }) as ReturnType<T["inject"]>;
}

const tokenIn = (body: string) => /name="token" value="([^"]+)"/.exec(body)?.[1] ?? "";

/**
 * A payer's whole round trip: choosing `method` on the page (303 to the sandbox's checkout), deciding
 * there (303 back to Kopek's return URL) and coming back, which makes Kopek ask the sandbox. Each
 * answer, so a test can look at every step; `returned` is null when the page did not send the payer on.
 * `origin`: where the payer's browser says its forms come from (the server's own origin).
 */
export function payAtSandbox<T extends PageClient>(
  t: T,
  id: string,
  method: string,
  decision: "succeed" | "decline" = "succeed",
  origin = SELF,
) {
  return payThroughSandbox(t, pagePath(t, id), method, decision, origin);
}

/** `payAtSandbox` from any of Kopek's pages at `path` (an invoice's, a method-update link's). */
export async function payThroughSandbox<T extends PageClient>(
  t: T,
  path: string,
  method: string,
  decision: "succeed" | "decline" = "succeed",
  origin = SELF,
) {
  const page = await t.inject({ method: "GET", url: path });
  const token = tokenIn(page.body);
  const chosen = await t.inject({
    method: "POST",
    url: path,
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    payload: new URLSearchParams({ token, method }).toString(),
  });
  if (chosen.statusCode !== 303) return { chosen, checkout: null, returned: null };
  // The sandbox's checkout is served by this app, below its public URL.
  const checkoutPath = new URL(String(chosen.headers.location)).pathname;
  const checkout = await t.inject({ method: "GET", url: checkoutPath });
  const decided = await t.inject({
    method: "POST",
    url: checkoutPath,
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    payload: new URLSearchParams({ token: tokenIn(checkout.body), decision }).toString(),
  });
  const back = new URL(String(decided.headers.location));
  const returned = await t.inject({ method: "GET", url: `${back.pathname}${back.search}` });
  return { chosen, checkout, decided, returned, returnPath: `${back.pathname}${back.search}` };
}
