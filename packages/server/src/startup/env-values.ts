import { isIP } from "node:net";
import { parseEncryptionKey } from "@kopek/storage-postgres";
import { z } from "zod";
import { parseDuration, parseRetrySchedule } from "./duration.js";

// Each message completes "<VARIABLE> …" and is followed by the value, so one line says it all.
export const digits = (message: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, message)
    .transform(Number);
/** Comma-separated base64 keys, each decoded with storage-postgres's own parser. */
export const base64Keys = (message: string) =>
  z.string().transform((value, context) => {
    try {
      return value.split(",").map((key) => parseEncryptionKey(key));
    } catch {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
  });
export const httpUrl = (message: string) =>
  z.string().refine((value) => /^https?:$/.test(URL.parse(value)?.protocol ?? ""), message);

/** A duration such as `5m`, in milliseconds. */
export const duration = (message: string) =>
  z.string().transform((value, context) => parseDuration(value) ?? invalid(context, message));
/** Increasing durations such as `1d,3d,5d`, in milliseconds. */
export const retrySchedule = (message: string) =>
  z.string().transform((value, context) => parseRetrySchedule(value) ?? invalid(context, message));

function invalid(context: z.RefinementCtx, message: string): never {
  context.addIssue({ code: "custom", message });
  return z.NEVER;
}

/** proxy-addr's (Fastify's `trustProxy`) names for whole ranges: loopback, link-local, private. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * Comma-separated proxy addresses or CIDRs (`10.0.0.0/8, ::1`). `true`, `*` or a hop count are refused:
 * they would trust whoever connects, and so let any client choose the address it is limited by.
 */
export const proxyAddresses = (message: string) =>
  z.string().transform((value, context) => {
    const entries = value.split(",").map((entry) => entry.trim());
    return entries.every(isProxyAddress) ? entries : invalid(context, message);
  });

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** `host:port` (`[::1]:9464` for IPv6): where a listener binds. */
export const listenAddress = (message: string) =>
  z.string().transform((value, context) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s/:[\]]+)):([0-9]{1,5})$/.exec(value);
    const host = match?.[1] ?? match?.[2];
    const port = Number(match?.[3]);
    if (host === undefined || port > 65_535 || (match?.[1] !== undefined && isIP(host) !== 6))
      return invalid(context, message);
    return { host, port };
  });
