import type { SendOutbound } from "@kopek/outbound";
import { describe, expect, it } from "vitest";
import { providerErrorOf } from "./payment-mapping.js";
import { createYooKassaClient } from "./yookassa-client.js";
import { paymentSchema } from "./yookassa-schemas.js";

// How a provider's refusal reaches Kopek's log: YooKassa's own words (code, description, parameter, error
// id) for a 4xx, `unavailable` when no answer came, and never the shop's secret key.

const SECRET = "live_s3cr3tKeyThatMustNeverBeLogged";

/** A client whose requests go to `send` instead of the network. */
const clientWith = (send: SendOutbound) =>
  createYooKassaClient({
    shopId: "100500",
    secretKey: SECRET,
    apiUrl: "https://api.yookassa.test/v3",
    timeoutMs: 1_000,
    maxRetries: 0,
    send,
  });

/** A client whose every request is answered `status` with `body`, as YooKassa would. */
const clientAnswering = (status: number, body: unknown) =>
  clientWith(async () => ({
    kind: "answer",
    status,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }));

const getPayment = (status: number, body: unknown) =>
  clientAnswering(status, body)
    .call({ method: "GET", path: "/payments/p-1", schema: paymentSchema })
    .mapErr(providerErrorOf);

describe("a YooKassa refusal as Kopek's ProviderError", () => {
  it("is failed and carries YooKassa's code, description, parameter and error id", async () => {
    const error = (
      await getPayment(400, {
        type: "error",
        id: "ab1c2d3e-0000-5000-8000-0123456789ab",
        code: "invalid_request",
        description: "Value of amount.value is invalid",
        parameter: "amount.value",
      })
    )._unsafeUnwrapErr();
    expect(error).toEqual({
      code: "failed",
      message:
        "YooKassa refused the request: 400 invalid_request: Value of amount.value is invalid " +
        "(parameter amount.value) [error id ab1c2d3e-0000-5000-8000-0123456789ab]",
    });
  });

  it("tells 403 and 404 by YooKassa's code, and a 4xx without an error body by its status", async () => {
    const forbidden = await getPayment(403, { type: "error", code: "forbidden", description: "No rights" });
    expect(forbidden._unsafeUnwrapErr()).toMatchObject({
      code: "failed",
      message: /403 forbidden: No rights/,
    });
    const notFound = await getPayment(404, { type: "error", code: "not_found" });
    expect(notFound._unsafeUnwrapErr().message).toBe("YooKassa refused the request: 404 not_found");
    const bare = await getPayment(422, "<html>nope</html>");
    expect(bare._unsafeUnwrapErr()).toMatchObject({ code: "failed", message: /422 http_422: no error body/ });
  });

  it("explains 401 as credentials, and never repeats the secret key even when YooKassa quotes it", async () => {
    const error = (
      await getPayment(401, {
        type: "error",
        code: "invalid_credentials",
        description: `Basic auth failed for key ${SECRET}`,
        parameter: "Authorization",
      })
    )._unsafeUnwrapErr();
    expect(error.code).toBe("failed");
    expect(error.message).toMatch(/401 invalid_credentials/);
    expect(error.message).toMatch(/check the shop id and the secret key/);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).toContain("[secret]");
  });

  it("is unavailable, not a refusal, when no answer came or the answer was a 5xx", async () => {
    const unreachable = clientWith(async () => ({
      kind: "failed",
      failure: "network",
      detail: "connect ECONNREFUSED 127.0.0.1:443",
    }));
    const error = (
      await unreachable
        .call({ method: "GET", path: "/payments/p-1", schema: paymentSchema })
        .mapErr(providerErrorOf)
    )._unsafeUnwrapErr();
    expect(error.code).toBe("unavailable");
    expect(error.message).not.toContain(SECRET);
    const outage = await getPayment(500, { type: "error", code: "internal_server_error" });
    expect(outage._unsafeUnwrapErr().code).toBe("unavailable");
  });
});
