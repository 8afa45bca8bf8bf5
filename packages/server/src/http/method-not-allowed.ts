import { type KopekError, ROUTES } from "@kopek/core";

/** The methods the API serves somewhere, from core's route table: GET, POST and DELETE. */
const SERVED = [...new Set(ROUTES.map((route) => route.method))].sort();
const PATTERNS = ROUTES.map((route) => ({
  method: route.method,
  path: new RegExp(`^${route.path.replace("{id}", "[^/]+")}$`),
}));

/**
 * The refusal of an API request whose method the API serves on no path — QUERY, PUT, PATCH, TRACE,
 * OPTIONS, or one Fastify does not know (PROPFIND, MKCOL) — as a 405 whose `Allow` names what the path
 * serves (every served method for a path the API does not have). Answered before authentication: it
 * depends on the method alone, which tells a caller nothing the OpenAPI document does not. HEAD is
 * left to core, as a GET is. Null for a method the API serves.
 */
export function unservedMethod(method: string, url: string): KopekError | null {
  if (method === "HEAD" || (SERVED as string[]).includes(method)) return null;
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const allow = SERVED.filter((served) =>
    PATTERNS.some((pattern) => pattern.method === served && pattern.path.test(path)),
  );
  return { code: "method_not_allowed", allow: allow.length > 0 ? allow : SERVED };
}
