import { randomUUID } from "node:crypto";

/**
 * The API over real HTTP as a client with one key calls it: a POST with a JSON body and a fresh
 * Idempotency-Key, a GET read back as JSON.
 */
export function apiClient(baseUrl: string, apiKey: string) {
  const authorization = `Bearer ${apiKey}`;
  return {
    post: (path: string, body: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { authorization, "idempotency-key": randomUUID(), "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    get: async <T = Record<string, unknown>>(path: string): Promise<T> =>
      (await (await fetch(`${baseUrl}${path}`, { headers: { authorization } })).json()) as T,
  };
}
