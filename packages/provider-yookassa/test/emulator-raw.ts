import type { YooKassaEmulator } from "./emulator.js";

/** The emulator's API over raw HTTP, as any client would call it: Basic auth, JSON, Idempotence-Key. */
export function rawApi(emulator: YooKassaEmulator) {
  const auth = () => `Basic ${Buffer.from(`${emulator.shopId}:${emulator.secretKey}`).toString("base64")}`;
  return {
    auth,
    post: (path: string, body: unknown, key: string | null, authorization = auth()) =>
      fetch(`${emulator.apiUrl}${path}`, {
        method: "POST",
        headers: {
          authorization,
          "content-type": "application/json",
          ...(key === null ? {} : { "idempotence-key": key }),
        },
        body: JSON.stringify(body),
      }),
    get: (path: string) => fetch(`${emulator.apiUrl}${path}`, { headers: { authorization: auth() } }),
  };
}
