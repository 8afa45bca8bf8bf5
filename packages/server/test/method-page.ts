/** A payer on a running server's method-update page (API.md 11.5), in English, over real HTTP. */

const EN = { "accept-language": "en" };

/** The CSRF token of the form on the page at `url` while it is open; "" when it has none. */
export async function tokenOf(url: string): Promise<string> {
  const page = await (await fetch(url, { headers: EN })).text();
  return /name="token" value="([^"]+)"/.exec(page)?.[1] ?? "";
}

/**
 * The payer at `url` (a method-update link of a server whose sandbox checkout it serves): chooses a
 * card, decides at the sandbox's checkout and comes back. The status of the choice (303 on the way to
 * the checkout), and of the page the payer came back to, with its text; `token` as an earlier load of
 * the page had it (a page no longer open has no form).
 */
export async function saveAtPage(
  url: string,
  decision: "succeed" | "decline" = "succeed",
  token?: string,
): Promise<{ chosen: number; status?: number; body: string }> {
  const origin = new URL(url).origin;
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { ...EN, origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual" as const,
  });
  const chosen = await fetch(url, form({ token: token ?? (await tokenOf(url)), method: "card" }));
  if (chosen.status !== 303) return { chosen: chosen.status, body: await chosen.text() };
  const checkoutUrl = new URL(String(chosen.headers.get("location")), origin);
  const checkout = await (await fetch(checkoutUrl, { headers: EN })).text();
  const checkoutToken = /name="token" value="([^"]+)"/.exec(checkout)?.[1] ?? "";
  const decided = await fetch(checkoutUrl, form({ token: checkoutToken, decision }));
  const returned = await fetch(new URL(String(decided.headers.get("location")), origin), { headers: EN });
  return { chosen: chosen.status, status: returned.status, body: await returned.text() };
}
