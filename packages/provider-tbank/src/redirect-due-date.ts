/**
 * `RedirectDueDate` of `Init` and `AddAccountQr` ([T]): how long T-Bank's payment link or SBP QR lives —
 * "Формат даты — `YYYY-MM-DDTHH24:MI:SS+GMT`" (example `2016-08-31T12:28:00+03:00`), at least a minute and
 * at most 90 days ahead; without it the link lives 24 hours whatever the invoice says. Sent as the
 * invoice's expiry in UTC, to the second; nothing when the expiry is not known.
 */
export function redirectDueDateOf(expiresAt: Date | undefined): { readonly RedirectDueDate?: string } {
  if (expiresAt === undefined || Number.isNaN(expiresAt.getTime())) return {};
  return { RedirectDueDate: `${expiresAt.toISOString().slice(0, 19)}+00:00` };
}
