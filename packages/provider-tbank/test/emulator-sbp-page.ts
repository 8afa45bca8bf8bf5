import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorAccounts } from "./emulator-sbp.js";

// The payer's bank app as the emulator plays it for an AddAccountQr link: a page with a button that
// confirms the binding (or refuses it). Marked TEST; a real binding is confirmed in the payer's bank app.

export async function handleBindingPage(
  request: IncomingMessage,
  response: ServerResponse,
  accounts: EmulatorAccounts,
  requestKey: string,
): Promise<void> {
  const account = accounts.accounts.get(requestKey);
  const html = (status: number, body: string) =>
    response.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
  if (account === undefined) return void html(404, "<p>No such binding</p>");
  if (request.method === "POST") {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const outcome = new URLSearchParams(Buffer.concat(chunks).toString("utf8")).get("outcome");
    if (outcome !== "bind" && outcome !== "refuse") return void html(400, "<p>Bad form</p>");
    accounts.confirm(requestKey, outcome === "bind");
  }
  const open = account.Status === "NEW";
  const forms = open
    ? `<form method="post" id="bind"><input type="hidden" name="outcome" value="bind"><button type="submit">Bind account</button></form>
<form method="post" id="refuse"><input type="hidden" name="outcome" value="refuse"><button type="submit">Refuse</button></form>`
    : `<p id="status">This binding is ${account.Status}.</p>`;
  html(
    200,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TEST T-Bank emulator SBP account binding</title></head>
<body><h1>TEST — bind an SBP account (${account.BankMemberName})</h1>
<p>No money moves: the shop may later charge this account without asking.</p>
${forms}
</body></html>`,
  );
}
