/**
 * Where the hosted payment page of an invoice lives, below the public URL: `/pay/{projectId}/{invoiceId}`.
 * The project is in the path so that every lookup the page makes names it (storage sharded by project).
 * Links handed out before it was, `/pay/{invoiceId}`, are still served (API.md 10.3).
 */
export function hostedPagePath(projectId: string, invoiceId: string): string {
  return `/pay/${projectId}/${invoiceId}`;
}

/** Where the provider sends the payer back after a payment of the page: the page's `return`. */
export function pageReturnPath(projectId: string, invoiceId: string, paymentId: string): string {
  return `${hostedPagePath(projectId, invoiceId)}/return?payment=${paymentId}`;
}

/**
 * Where a payer puts a new method on a subscription (API.md 11.5):
 * `/method/{projectId}/{subscriptionId}/{methodUpdateId}`.
 */
export function methodUpdatePagePath(projectId: string, subscriptionId: string, updateId: string): string {
  return `/method/${projectId}/${subscriptionId}/${updateId}`;
}

/** Where the provider sends the payer back after a verification payment of that page. */
export function methodUpdateReturnPath(
  projectId: string,
  subscriptionId: string,
  updateId: string,
  paymentId: string,
): string {
  return `${methodUpdatePagePath(projectId, subscriptionId, updateId)}/return?payment=${paymentId}`;
}

/** Where the provider sends the payer back after a save with no payment (API.md 11.5) of that page. */
export function methodSaveReturnPath(
  projectId: string,
  subscriptionId: string,
  updateId: string,
  saveId: string,
): string {
  return `${methodUpdatePagePath(projectId, subscriptionId, updateId)}/return?save=${saveId}`;
}
