import type { Kopek } from "@kopek/core";

/**
 * A Kopek for an app that must be built before its public URL is known: with PORT=0 and no
 * KOPEK_PUBLIC_URL, the base of `paymentUrl` includes the port the server was given, which exists only
 * once it listens. `bind` is called right after listening, before the event loop can hand the app a
 * request, so in practice nothing waits; the calls that could use the URL still await it, so even a
 * request that slipped in earlier would get the real one, never a placeholder.
 */
export function kopekAfterListen(make: (publicUrl: string) => Kopek): {
  readonly kopek: Kopek;
  bind(publicUrl: string): void;
} {
  let bound: Kopek | null = null;
  let resolve: (kopek: Kopek) => void = () => {};
  const ready = new Promise<Kopek>((settle) => {
    resolve = settle;
  });
  // errorResponse is synchronous and does not depend on the URL: before `bind` it is answered by a
  // Kopek on a placeholder URL rather than not at all.
  let early: Kopek | null = null;
  const now = () => {
    if (bound !== null) return bound;
    early ??= make("http://kopek.invalid");
    return early;
  };
  return {
    kopek: {
      // Once bound (right after listen), calls go straight through: no await per request.
      authenticate: (authorization) =>
        bound !== null ? bound.authenticate(authorization) : ready.then((k) => k.authenticate(authorization)),
      confirm: (auth) => (bound !== null ? bound.confirm(auth) : ready.then((k) => k.confirm(auth))),
      handle: (request) => (bound !== null ? bound.handle(request) : ready.then((k) => k.handle(request))),
      errorResponse: (error, requestId) => now().errorResponse(error, requestId),
      purgeExpiredIdempotencyKeys: async (limit) => (await ready).purgeExpiredIdempotencyKeys(limit),
      paymentPage: async (invoiceId) => (await ready).paymentPage(invoiceId),
      payInvoice: async (request) => (await ready).payInvoice(request),
    },
    bind(publicUrl) {
      if (bound !== null) throw new Error("kopekAfterListen: bound twice");
      bound = make(publicUrl);
      resolve(bound);
    },
  };
}
