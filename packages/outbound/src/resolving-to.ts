import type { LookupFunction } from "node:net";

/**
 * Test aid: a DNS stand-in resolving every name to `address`, to show what a name resolving inside the
 * network gets from the guard without asking real DNS or sending anything off this machine.
 */
export function resolvingTo(address: string): LookupFunction {
  const family = address.includes(":") ? 6 : 4;
  return (_host, options, callback) =>
    options.all
      ? (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
          { address, family },
        ])
      : callback(null, address, family);
}
