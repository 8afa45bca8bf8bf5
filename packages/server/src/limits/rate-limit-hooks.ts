import { hashApiKey, type Kopek, parseBearerToken } from "@kopek/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterRes } from "rate-limiter-flexible";
import { KopekHttpError } from "../http/kopek-http-error.js";
import { sendKopekResponse } from "../http/send-kopek-response.js";
import { rateLimitAddress } from "./client-address.js";
import type { RateLimits } from "./rate-limits.js";

const retryAfterSeconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/** Consumes one point of `key`; the wait in seconds when the limit is exceeded, else null. */
async function overLimit(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return retryAfterSeconds(refusal);
    throw refusal; // a store error with no insurance: a bug, answered as a 500
  }
}

function sendRateLimited(kopek: Kopek, request: FastifyRequest, reply: FastifyReply, seconds: number) {
  return sendKopekResponse(
    reply,
    kopek.errorResponse({ code: "rate_limited", retryAfterSeconds: seconds }, request.id),
  );
}

/**
 * The API's limits. Per API key: before the body is read; the 429 goes through core, so a bad key still
 * gets its 401. The key is counted by its SHA-256 — the hash storage keeps, of the token core's own
 * `parseBearerToken` reads — so no store ever holds a plaintext key, and `bEaRer  <key>` is the same
 * bucket as `Bearer <key>`; a request without a bearer token counts against its client address. Per IP
 * for failed authentication: every 401 costs its address a point; once the address is over the limit
 * this instance answers 429 before hashing or looking any key up, until the window ends. Addresses
 * are counted by `rateLimitAddress` (IPv6 per /64), from `request.ip` (KOPEK_TRUST_PROXY).
 */
export function apiRateLimits(api: FastifyInstance, kopek: Kopek, limits: RateLimits) {
  const { perKey, failedAuthPerIp } = limits;
  const blockedUntil = new Map<string, number>();
  if (failedAuthPerIp !== null) {
    api.addHook("onRequest", async (request, reply) => {
      const address = rateLimitAddress(request.ip);
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      const wait = until - Date.now();
      if (wait <= 0) {
        blockedUntil.delete(address);
        return;
      }
      return sendRateLimited(kopek, request, reply, Math.ceil(wait / 1000));
    });
    api.addHook("onSend", async (request, reply) => {
      if (reply.statusCode !== 401) return;
      const address = rateLimitAddress(request.ip);
      const wait = await overLimit(failedAuthPerIp, address);
      if (wait === null) return;
      // Bounded: an attacker spreading over many addresses cannot grow this without end.
      if (blockedUntil.size >= 10_000) blockedUntil.clear();
      blockedUntil.set(address, Date.now() + wait * 1000);
    });
  }
  if (perKey !== null) {
    api.addHook("preParsing", async (request) => {
      const wait = await overLimit(perKey, perKeyBucket(request));
      if (wait !== null) throw new KopekHttpError({ code: "rate_limited", retryAfterSeconds: wait });
    });
  }
}

function perKeyBucket(request: FastifyRequest): string {
  const { authorization } = request.headers;
  const token = parseBearerToken(Array.isArray(authorization) ? authorization.join(", ") : authorization);
  return token === null ? `ip:${rateLimitAddress(request.ip)}` : hashApiKey(token);
}

/**
 * Per-IP limit of the public routes (payment page, provider notifications): 429 past it. Not of
 * /healthz and /readyz: a load balancer probing from one address must never be locked out.
 */
export function publicRateLimit(app: FastifyInstance, kopek: Kopek, limiter: RateLimiterAbstract | null) {
  if (limiter === null) return;
  app.addHook("onRequest", async (request, reply) => {
    const wait = await overLimit(limiter, rateLimitAddress(request.ip));
    if (wait !== null) return sendRateLimited(kopek, request, reply, wait);
  });
}
